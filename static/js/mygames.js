// "Your games" on the start page: the games in progress of this browser's player
// (`GET /api/me/games`), the ones where it is their move first, each one click from its
// table. Nothing is shown when there are none.

import { formatClock } from './clock.js';
import { h } from './dom.js';
import { href } from './router.js';

/**
 * The card of `games` (the list's `games`), naming variants by `rooms`; `null` when
 * there is nothing to show.
 */
export function myGamesCard(t, games, rooms, now = Date.now()) {
  if (!games?.length) return null;
  const variantName = (v) => {
    const room = rooms.find((r) => r.variant === v);
    return room ? t.pick(room.names, room.name ?? v) : v;
  };
  return h('section', { class: 'my-games card', 'data-my-games': String(games.length) },
    h('h2', {}, t('mygames.title')),
    h('ul', {}, games.map((g) => h('li', { 'data-my-game': g.id, 'data-my-move': String(!!g.my_move) },
      h('a', { href: href('table', g.table) },
        g.my_move ? h('span', { class: 'badge your-move' }, t('mygames.your_move')) : h('span', { class: 'badge' }, t('mygames.waiting')),
        ' ',
        h('span', { class: 'vs name-cut', title: g.opponent.name }, t('mygames.against', { name: g.opponent.name })),
        h('span', { class: 'meta' }, ` · ${variantName(g.variant)} · ${t('plies', { n: g.plies })}`),
        // A correspondence game: the side to move's time left, as of the page's load.
        g.deadline ? h('span', { class: 'meta', 'data-time-left': '' }, ` · ${t('mygames.left', { time: left(t, g.deadline - now) })}`) : null)))));
}

/** Time left in words of the clock: "2 d 23 h", "4:05". */
function left(t, ms) {
  return formatClock(ms, (d, hours) => t('clock.days', { d, h: hours }));
}
