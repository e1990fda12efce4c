// Invitations (docs/protocol.md, Invitations), the part both pages share: which table a
// player can invite to, who can be invited, whether a received invitation still holds,
// and the two pieces of page they show (the people's Invite buttons, the invitation
// prompt with Join / Dismiss). The pure functions are unit-tested.

import { timeControl } from './clock.js';
import { h } from './dom.js';
import { playerName } from './playnow.js';

/** The free seat of a table, or null. */
export function freeSeat(table) {
  if (!table?.seats) return null;
  if (!table.seats.white) return 'white';
  if (!table.seats.black) return 'black';
  return null;
}

/** Whether a table takes a player now: a free seat and no game being played. */
export function isOpen(table) {
  return !!freeSeat(table) && table.game?.status !== 'playing';
}

/**
 * The table `meId` can invite to among `tables` (an iterable of table views): one they
 * sit at that is open (the server checks the same), or null.
 */
export function inviteTable(tables, meId) {
  if (!meId) return null;
  for (const tb of tables ?? []) {
    const seated = tb.seats?.white?.id === meId || tb.seats?.black?.id === meId;
    if (seated && isOpen(tb) && !tb.options?.local && !tb.options?.bot) return tb;
  }
  return null;
}

/** The people one may invite: not oneself, not someone playing a game now. */
export function invitable(people, meId) {
  return (people ?? []).filter((p) => p.id !== meId && p.where !== 'playing');
}

/**
 * Whether a received invitation still holds, given the room's tables by id (a Map): its
 * table is listed and open. The room announces table changes in batches and an
 * invitation at once, so the invitation may come before its table does: until the room
 * has listed the table (the caller marks the invitation `listed` once it has), the
 * table as the invitation shows it decides.
 */
export function stillOpen(invitation, tables) {
  const tb = tables.get(invitation?.table?.id);
  if (tb) return isOpen(tb);
  return !invitation?.listed && isOpen(invitation?.table);
}

/** "5 min + 3 s · random opening", the options an invitation names. */
export function optionsText(t, options) {
  const o = options ?? {};
  return [
    timeControl(t, o),
    o.random_opening ? t('option.random_opening') : null,
    o.capture_optional ? t('option.capture_optional') : null,
  ].filter(Boolean).join(' · ');
}

/** The Invite button next to a person. */
export function inviteButton(t, person, onInvite) {
  return h('button', {
    class: 'btn small', type: 'button', 'data-action': 'invite', 'data-invite': person.id,
    'aria-label': t('invite.who', { name: person.name }), onclick: () => onInvite(person),
  }, t('invite.action'));
}

/** The prompt for a received invitation: who, to which table, Join / Dismiss. */
export function invitationCard(t, inv, { onJoin, onDismiss }) {
  return h('div', { class: 'prompt invitation', role: 'alert', 'data-prompt': 'invite', 'data-invitation': inv.id },
    h('p', { class: 'prompt-text' }, t('invite.prompt', { name: playerName(t, inv.from), options: optionsText(t, inv.table?.options) })),
    h('div', { class: 'prompt-actions' },
      h('button', { class: 'btn primary', type: 'button', 'data-action': 'invite-join', onclick: () => onJoin(inv) }, t('invite.join')),
      h('button', { class: 'btn', type: 'button', 'data-action': 'invite-dismiss', onclick: () => onDismiss(inv) }, t('invite.dismiss')),
    ),
  );
}
