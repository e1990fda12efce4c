// A chat panel (room or table): the messages, a 300-character input, and a mute switch
// per person (remembered, chat.js). The owner feeds it the log and sends what it returns.

import { CHAT_MAX, chatText, mutedIds, setPersonMuted, visibleChat } from './chat.js';
import { h, replace } from './dom.js';
import { playerName } from './playnow.js';

/**
 * @param {{t: Function, title: string, kind: string, send: (text: string) => boolean, me: () => string|null}} opts
 *   `kind` names the panel for tests (`data-chat="room|players|spectators"`)
 */
export function chatPanel({ t, title, kind, send, me }) {
  let muted = mutedIds();
  let log = [];
  const list = h('ol', { class: 'chat-list', 'aria-live': 'polite', 'data-chat-list': '' });
  const input = h('input', { type: 'text', maxlength: String(CHAT_MAX), name: 'chat', 'aria-label': t('chat.placeholder'), placeholder: t('chat.placeholder'), autocomplete: 'off' });
  const msg = h('p', { class: 'form-msg error', role: 'alert' });
  const form = h('form', { class: 'chat-form' }, input, h('button', { class: 'btn small', type: 'submit', 'data-action': 'chat-send' }, t('chat.send')));
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const text = chatText(input.value);
    if (!text) return;
    msg.textContent = '';
    if (send(text)) input.value = '';
    else msg.textContent = t('error.offline');
  });
  const el = h('section', { class: 'chat card', 'data-chat': kind }, h('h3', {}, title), list, form, msg);

  function draw() {
    const mine = me();
    replace(list, visibleChat(log, muted).map((m) =>
      h('li', { 'data-chat-id': String(m.id) },
        h('span', { class: 'chat-from' }, playerName(t, m.from) || '?'), ': ',
        h('span', { class: 'chat-text' }, m.text),
        m.from?.id && m.from.id !== mine
          // A word, not a "×": it hides this person's messages for this player, it
          // deletes nothing.
          ? h('button', { class: 'btn ghost chat-mute', type: 'button', 'data-action': 'mute-person', title: t('chat.mute'), 'aria-label': t('chat.mute_who', { name: playerName(t, m.from) }), onclick: () => mute(m.from.id) }, t('chat.mute_label'))
          : null,
      )));
    list.scrollTop = list.scrollHeight;
  }

  function mute(id) {
    muted = setPersonMuted(id, true);
    draw();
  }

  return {
    el,
    /** Replaces the shown log. */
    set(next) {
      log = next;
      draw();
    },
    /** Hides the input (a spectator reads the players' chat during a game). */
    readOnly(on) {
      form.hidden = on;
    },
    /** Shows a refusal from the server (flood control, length). */
    error(text) {
      msg.textContent = text;
    },
  };
}
