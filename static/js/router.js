// Hash routing (`#/room/russian`, `#/table/ID`, `#/game/ID`, `#/tournament/ID`,
// `#/rules/russian`, `#/player/USERNAME`, `#/leaderboard/russian`): works
// when the server serves only static files plus the API, and survives a reload.

/**
 * Parses a location hash into a route name and its parameter.
 * @param {string} hash e.g. `#/table/t4k9q2`
 * @returns {{name: string, id: string|null}}
 */
export function parseRoute(hash) {
  const [rawPath, search] = String(hash ?? '').replace(/^#/, '').split('?');
  const path = rawPath.replace(/^\/+|\/+$/g, '');
  const [name, ...rest] = path.split('/');
  const id = rest.length ? decodeURIComponent(rest.join('/')) : null;
  switch (name) {
    case 'room':
    case 'table':
    case 'game':
    case 'tournament':
    case 'player':
    case 'puzzle':
      return id ? { name, id } : { name: 'lobby', id: null };
    case 'puzzles':
      return { name: 'puzzles', id };
    case 'leaderboard':
      return { name: 'leaderboard', id };
    case 'rules':
      return { name: 'rules', id };
    case 'analyse': {
      // The analysis board: `#/analyse?variant=russian&fen=W:W...:B...`.
      const q = new URLSearchParams(search ?? '');
      return { name: 'analyse', id: null, variant: q.get('variant'), fen: q.get('fen') };
    }
    default:
      return { name: 'lobby', id: null };
  }
}

/** The hash for a route. */
export function href(name, id) {
  if (name === 'lobby') return '#/';
  return id == null ? `#/${name}` : `#/${name}/${encodeURIComponent(id)}`;
}

/** The hash of the analysis board on a position. */
export function analyseHref(variant, fen) {
  const q = new URLSearchParams();
  if (variant) q.set('variant', variant);
  if (fen) q.set('fen', fen);
  const text = q.toString();
  return text ? `#/analyse?${text}` : '#/analyse';
}
