// The room's tournaments: the live list (from the room socket, see tournaments.js) with
// join / leave / open, and the form that creates one.

import * as api from './api.js';
import { ballotFlag } from './ballot.js';
import { h, replace } from './dom.js';
import { href } from './router.js';
import { playerName } from './playnow.js';
import { canJoin, canLeave, countdown, isIn, sortTournaments, tournamentLabel } from './tournaments.js';

/** A tournament's state in one line ("Round 2 of 5", "Starts in 4:59", …). */
export function tournamentState(t, x, now = Date.now(), fetchedAt = now) {
  if (x.status === 'over') return x.cancelled ? t('tournament.cancelled') : t('tournament.status.over');
  if (x.status === 'running') return t('tournament.status.running', { round: x.round, total: x.total_rounds });
  if (x.starts_in_ms != null) return t('tournament.starts_in', { time: countdown(x.starts_in_ms - (now - fetchedAt)) });
  if (x.starts_at) return t('tournament.starts_in', { time: countdown(Date.parse(x.starts_at) - now) });
  return t('tournament.starts_when_full');
}

/** The list: one row per tournament. */
export function tournamentRows(t, list, ctx, onError) {
  if (!list.length) return [h('li', { class: 'empty' }, t('tournaments.none'))];
  const me = ctx.me?.id ?? null;
  return sortTournaments(list).map((x) => {
    const act = async (what) => {
      try {
        await api.tournamentAction(x.id, what);
      } catch (err) {
        onError(t(`error.${err.code}`));
      }
    };
    return h('li', { class: `tournament-row card ${x.status}`, 'data-tournament-id': x.id, 'data-status': x.status },
      h('div', { class: 'tr-head' },
        h('a', { class: 'name', href: href('tournament', x.id) }, tournamentLabel(t, x)),
        h('span', { class: 'state' }, tournamentState(t, x)),
      ),
      h('p', { class: 'meta' },
        `${t(`tournament.kind.${x.kind}`)} · ${x.minutes}+${x.increment} · `,
        h('span', { 'data-places': '' }, t('tournament.places', { n: x.players.length, max: x.max_players })),
        x.bots ? ` · ${t('tournament.with_bots', { n: x.bot_level ?? 1 })}` : '',
        x.rated ? h('span', { class: 'badge rated', 'data-rated': '' }, t('option.rated')) : null,
        x.ballot ? ` · ${ballotFlag(t, x.ballot)}` : '',
        x.micro_match ? ` · ${t('option.micro_match')}` : '',
        x.leader ? ` · ${t('tournament.leader', { name: playerName(t, x.leader) })}` : '',
      ),
      h('div', { class: 'tr-foot' },
        isIn(x, me) ? h('span', { class: 'badge ready' }, t('tournament.you_are_in')) : h('span'),
        h('span', { class: 'row-actions' },
          canJoin(x, me, !!ctx.me?.account) ? h('button', { class: 'btn small primary', 'data-action': 'join-tournament', onclick: () => act('join') }, t('action.join'))
            : canJoin(x, me) ? h('span', { class: 'rated-note', 'data-rated-join': '' }, t('rated.accounts_only')) : null,
          canLeave(x, me) && x.status === 'open' ? h('button', { class: 'btn small', 'data-action': 'leave-tournament', onclick: () => act('leave') }, t('action.leave')) : null,
          h('a', { class: 'btn small', href: href('tournament', x.id), 'data-action': 'open-tournament' }, t('action.open')),
        ),
      ),
    );
  });
}

/** The create-tournament form, folded until opened. */
export function createTournamentForm(t, roomId, ctx) {
  const kind = h('select', { id: 'tn-kind', name: 'kind' },
    ['round_robin', 'swiss'].map((k) => h('option', { value: k }, t(`tournament.kind.${k}`))));
  const name = h('input', { type: 'text', id: 'tn-name', name: 'name', maxlength: '40', placeholder: t('tcreate.name_hint') });
  const rounds = h('input', { type: 'number', id: 'tn-rounds', name: 'rounds', min: '1', max: '15', value: '5' });
  const players = h('input', { type: 'number', id: 'tn-players', name: 'max_players', min: '3', max: '12', value: '6', required: true });
  const minutes = h('input', { type: 'number', id: 'tn-minutes', name: 'minutes', min: '1', max: '15', value: '5', required: true });
  const increment = h('input', { type: 'number', id: 'tn-increment', name: 'increment', min: '0', max: '10', value: '3', required: true });
  const start = h('select', { id: 'tn-start', name: 'start' },
    h('option', { value: 'full' }, t('tcreate.start.full')),
    h('option', { value: 'at' }, t('tcreate.start.at')));
  const delay = h('input', { type: 'number', id: 'tn-delay', name: 'starts_in_minutes', min: '1', max: '1440', value: '10' });
  const bots = h('input', { type: 'checkbox', id: 'tn-bots', name: 'bots' });
  const botLevel = h('select', { id: 'tn-bot-level', name: 'bot_level' },
    [1, 2, 3].map((n) => h('option', { value: String(n) }, t(`bot.level.${n}`))));
  // Rated: accounts only, and never with the computer filling places.
  const account = !!ctx.me?.account;
  const rated = h('input', { type: 'checkbox', id: 'tn-rated', name: 'rated', disabled: !account });
  const ratedNote = h('p', { class: 'meta', 'data-rated-note': '' });
  // Openings (issue 38): none, or a ballot of the variant's default set each round; and
  // micro-match rounds (each pairing plays both colours from the round's opening).
  const ballot = h('select', { id: 'tn-ballot', name: 'ballot' },
    h('option', { value: '' }, t('create.ballot_none')),
    h('option', { value: 'random' }, t('create.ballot_random')));
  const ballotNote = h('p', { class: 'meta', 'data-tn-ballot-note': '', hidden: true }, t('tcreate.ballot_note'));
  const micro = h('input', { type: 'checkbox', id: 'tn-micro', name: 'micro_match' });
  const microNote = h('p', { class: 'meta', 'data-tn-micro-note': '', hidden: true }, t('tcreate.micro_note'));
  const msg = h('p', { class: 'form-msg', role: 'alert' });
  const roundsField = h('div', { class: 'field' }, h('label', { for: 'tn-rounds' }, t('tcreate.rounds')), rounds);
  const delayField = h('div', { class: 'field' }, h('label', { for: 'tn-delay' }, t('tcreate.minutes_until')), delay);
  const levelField = h('div', { class: 'field' }, h('label', { for: 'tn-bot-level' }, t('tcreate.bot_level')), botLevel);
  const sync = () => {
    const swiss = kind.value === 'swiss';
    roundsField.hidden = !swiss;
    players.max = swiss ? '64' : '12';
    delayField.hidden = start.value !== 'at';
    levelField.hidden = !bots.checked;
    if (account) {
      rated.disabled = bots.checked;
      if (bots.checked) rated.checked = false;
      bots.disabled = rated.checked;
    }
    ratedNote.textContent = !account ? t('rated.guest') : bots.checked ? t('rated.tournament_bots') : '';
    ballotNote.hidden = !ballot.value;
    microNote.hidden = !micro.checked;
    // Ten players already play 18 games each in a round-robin of micro-matches.
    if (!swiss) players.max = micro.checked ? '10' : '12';
  };
  kind.addEventListener('change', sync);
  start.addEventListener('change', sync);
  bots.addEventListener('change', sync);
  rated.addEventListener('change', sync);
  ballot.addEventListener('change', sync);
  micro.addEventListener('change', sync);
  sync();
  const form = h('form', { class: 'create-form', 'data-form': 'create-tournament' },
    h('div', { class: 'field' }, h('label', { for: 'tn-kind' }, t('tcreate.kind')), kind),
    h('div', { class: 'field' }, h('label', { for: 'tn-name' }, t('tcreate.name')), name),
    roundsField,
    h('div', { class: 'field' }, h('label', { for: 'tn-players' }, t('tcreate.players')), players),
    h('div', { class: 'field' }, h('label', { for: 'tn-minutes' }, t('create.minutes')), minutes),
    h('div', { class: 'field' }, h('label', { for: 'tn-increment' }, t('create.increment')), increment),
    h('div', { class: 'field' }, h('label', { for: 'tn-start' }, t('tcreate.start')), start),
    delayField,
    h('div', { class: 'field check' }, bots, h('label', { for: 'tn-bots' }, t('tcreate.bots'))),
    levelField,
    h('div', { class: 'field' }, h('label', { for: 'tn-ballot' }, t('create.ballot')), ballot),
    ballotNote,
    h('div', { class: 'field check' }, micro, h('label', { for: 'tn-micro' }, t('create.micro_match'))),
    microNote,
    h('div', { class: 'field check' }, rated, h('label', { for: 'tn-rated' }, t('tcreate.rated'))),
    ratedNote,
    h('button', { class: 'btn primary', type: 'submit', 'data-action': 'create-tournament' }, t('tcreate.submit')),
    msg,
  );
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const swiss = kind.value === 'swiss';
    try {
      const x = await api.createTournament(roomId, {
        kind: kind.value,
        rounds: swiss ? Number(rounds.value) : null,
        max_players: Number(players.value),
        minutes: Number(minutes.value),
        increment: Number(increment.value),
        starts_in_secs: start.value === 'at' ? Number(delay.value) * 60 : null,
        bots: bots.checked,
        bot_level: Number(botLevel.value),
        rated: rated.checked,
        name: name.value.trim() || null,
        ballot: ballot.value || null,
        micro_match: micro.checked,
      });
      ctx.go('tournament', x.id);
    } catch (err) {
      msg.textContent = err.code === 'invalid_options' ? `${t('error.invalid_options')} ${err.message}` : t(`error.${err.code}`);
    }
  });
  return h('details', { class: 'card tournament-create' },
    h('summary', { 'data-action': 'new-tournament' }, t('tcreate.title')),
    form);
}
