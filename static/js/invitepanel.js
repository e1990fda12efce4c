// The table page's "invite someone from the room" card, shown to a seated player while
// the other seat is free: it opens the room's socket for as long as it is shown (the
// people come from there, and invitations go there), lists who can be invited, and says
// when an invitation was sent or refused.

import { h, replace } from './dom.js';
import { applyPeople, sortPeople } from './chat.js';
import { invitable, inviteButton } from './invite.js';
import { LiveSocket } from './socket.js';

/**
 * @param {{t: Function, me: () => string|null}} opts
 * @returns {{el: HTMLElement, show: (roomId: string|null, tableId: string|null) => void, close: () => void}}
 */
export function invitePanel({ t, me }) {
  const list = h('ul', { class: 'people-list', 'data-invite-list': '' });
  const note = h('p', { class: 'form-msg', role: 'status', 'data-invite-note': '' });
  const el = h('section', { class: 'card invite', 'data-invite-panel': '', hidden: true }, h('h3', {}, t('invite.title')), list, note);
  let socket = null;
  let room = null;
  let table = null;
  let people = [];
  let nextAck = 1;
  const acks = new Set();

  function draw() {
    const who = sortPeople(invitable(people, me()));
    replace(list, who.length
      ? who.map((p) => h('li', { 'data-person': p.id, 'data-where': p.where }, h('span', {}, p.name), ' ', inviteButton(t, p, invite)))
      : h('li', { class: 'empty' }, t('invite.none')));
  }

  function invite(person) {
    const ack = nextAck++;
    acks.add(ack);
    note.classList.remove('error');
    if (!socket?.send({ t: 'invite', to: person.id, table, ack })) note.textContent = t('error.offline');
  }

  function onMessage(msg) {
    const next = applyPeople(people, msg);
    if (next) {
      people = next;
      draw();
    }
    if (msg.t === 'invited' && msg.from?.id === me()) {
      note.classList.remove('error');
      note.textContent = t('invite.sent', { name: msg.to?.name ?? '' });
    }
    if (msg.t === 'error' && acks.has(msg.ack)) {
      acks.delete(msg.ack);
      note.classList.add('error');
      note.textContent = t(`error.${msg.code}`, { message: msg.message ?? '' });
    }
  }

  function close() {
    socket?.close();
    socket = null;
    room = null;
    people = [];
    el.hidden = true;
  }

  return {
    el,
    /** Shows the card for `tableId` in `roomId`, or hides it (`null`). */
    show(roomId, tableId) {
      table = tableId;
      if (!roomId || !tableId) {
        close();
        return;
      }
      el.hidden = false;
      if (room === roomId && socket) return;
      close();
      el.hidden = false;
      room = roomId;
      note.textContent = '';
      draw();
      socket = new LiveSocket(`/ws/rooms/${encodeURIComponent(roomId)}`, { onMessage });
    },
    close,
  };
}
