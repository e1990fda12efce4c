// The service worker of Web Push (docs/protocol.md, "Notifications"): shows what the
// server says happened in a game while its page is closed, in the browser's language, and
// opens (or focuses) the game's table when the notification is clicked. It caches
// nothing: the site works only online.
/* global self, clients */
'use strict';

// The words of each kind, per language the client speaks ({o}: the opponent's name).
const TEXTS = {
  en: { your_turn: ['Your move', '{o} has moved.'], offer: ['An offer', '{o} offers a draw or asks for a takeback.'], game_end: ['Game over', 'Your game against {o} has ended.'], time_low: ['Time is running low', 'Your time in the game against {o} is running low.'] },
  pl: { your_turn: ['Twój ruch', '{o} wykonał(a) ruch.'], offer: ['Propozycja', '{o} proponuje remis lub prosi o cofnięcie ruchu.'], game_end: ['Koniec partii', 'Partia z {o} się zakończyła.'], time_low: ['Kończy się czas', 'Kończy się Twój czas w partii z {o}.'] },
  ru: { your_turn: ['Ваш ход', '{o} сделал(а) ход.'], offer: ['Предложение', '{o} предлагает ничью или просит вернуть ход.'], game_end: ['Партия окончена', 'Ваша партия с {o} окончена.'], time_low: ['Время на исходе', 'Ваше время в партии с {o} на исходе.'] },
  pt: { your_turn: ['Sua vez', '{o} jogou.'], offer: ['Uma proposta', '{o} propõe empate ou pede para voltar o lance.'], game_end: ['Fim de partida', 'Sua partida contra {o} terminou.'], time_low: ['O tempo está acabando', 'Seu tempo na partida contra {o} está acabando.'] },
  es: { your_turn: ['Tu turno', '{o} ha movido.'], offer: ['Una propuesta', '{o} propone tablas o pide deshacer la jugada.'], game_end: ['Fin de la partida', 'Tu partida contra {o} ha terminado.'], time_low: ['Se acaba el tiempo', 'Se acaba tu tiempo en la partida contra {o}.'] },
  it: { your_turn: ['Tocca a te', '{o} ha mosso.'], offer: ['Una proposta', '{o} propone patta o chiede di ritirare la mossa.'], game_end: ['Partita finita', 'La tua partita contro {o} è finita.'], time_low: ['Il tempo sta per finire', 'Il tuo tempo nella partita contro {o} sta per finire.'] },
  cs: { your_turn: ['Jste na tahu', '{o} táhl(a).'], offer: ['Nabídka', '{o} nabízí remízu nebo žádá o vrácení tahu.'], game_end: ['Konec partie', 'Vaše partie s hráčem {o} skončila.'], time_low: ['Dochází čas', 'V partii s hráčem {o} vám dochází čas.'] },
  nl: { your_turn: ['Jouw zet', '{o} heeft gezet.'], offer: ['Een voorstel', '{o} biedt remise aan of vraagt een zet terug.'], game_end: ['Partij afgelopen', 'Je partij tegen {o} is afgelopen.'], time_low: ['Je tijd raakt op', 'Je tijd in de partij tegen {o} raakt op.'] },
  fr: { your_turn: ['À vous de jouer', '{o} a joué.'], offer: ['Une proposition', '{o} propose la nulle ou demande à reprendre un coup.'], game_end: ['Partie terminée', 'Votre partie contre {o} est terminée.'], time_low: ['Le temps presse', 'Votre temps dans la partie contre {o} s’épuise.'] },
};

/** The first of `languages` (BCP 47 tags) the client speaks, else English. */
function pickLanguage(languages) {
  for (const tag of languages || []) {
    const base = String(tag).toLowerCase().split('-')[0];
    if (TEXTS[base]) return base;
  }
  return 'en';
}

/** `{title, body, url, tag}` of a push payload (`{kind, game, url, opponent, variant}`). */
function notificationOf(data, languages) {
  const words = TEXTS[pickLanguage(languages)];
  const [title, body] = words[data?.kind] || words.your_turn;
  const opponent = String(data?.opponent ?? '').slice(0, 40);
  // Only paths of this site are opened.
  const url = typeof data?.url === 'string' && data.url.startsWith('/') && !data.url.startsWith('//') ? data.url : '/';
  return { title, body: body.replace('{o}', opponent), url, tag: `damka-${data?.game ?? ''}` };
}

if (typeof self !== 'undefined' && typeof self.addEventListener === 'function' && typeof clients !== 'undefined') {
  self.addEventListener('push', (event) => {
    let data = null;
    try {
      data = event.data ? event.data.json() : null;
    } catch {
      data = null;
    }
    const n = notificationOf(data, self.navigator?.languages);
    event.waitUntil(self.registration.showNotification(n.title, {
      body: n.body, tag: n.tag, renotify: true, icon: '/favicon.svg', data: { url: n.url },
    }));
  });

  self.addEventListener('notificationclick', (event) => {
    event.notification.close();
    const url = new URL(event.notification.data?.url || '/', self.location.origin).href;
    event.waitUntil((async () => {
      const open = await clients.matchAll({ type: 'window', includeUncontrolled: true });
      for (const c of open) {
        if (c.url === url && 'focus' in c) return c.focus();
      }
      const first = open.find((c) => new URL(c.url).origin === self.location.origin && 'navigate' in c);
      if (first) {
        await first.navigate(url);
        return first.focus();
      }
      return clients.openWindow(url);
    })());
  });
}

// For the client's unit tests (Node): the pure part.
if (typeof module !== 'undefined') module.exports = { notificationOf, pickLanguage, TEXTS };
