// The header's account panel (issue 23): a guest makes an account from itself at any
// moment (a game in progress goes on: same player, only the cookie changes) or signs in;
// an account changes its password or signs out (this device, or everywhere), and turns
// notifications on for a device (`notify.js`). Every error
// code of the account API is said in words; a `429` says when to try again.

import * as api from './api.js';
import { h, replace } from './dom.js';
import { href } from './router.js';
import { notificationsPanel } from './notify.js';

/**
 * The words for an account API failure: the code's message, and for `rate_limited`
 * with `Retry-After`, how long to wait and until when.
 */
export function accountError(t, err, lang) {
  if (err?.code === 'rate_limited' && err.retryAfter) {
    const at = new Date(Date.now() + err.retryAfter * 1000)
      .toLocaleTimeString(lang, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
    return t('error.retry_in', { s: err.retryAfter, at });
  }
  return t(`error.${err?.code ?? 'unknown'}`);
}

function field(id, label, attrs) {
  return h('div', { class: 'field' }, h('label', { for: id }, label), h('input', { id, ...attrs }));
}

/** A form whose submit runs `run(values)`, showing its message under the button. */
function accountForm(t, lang, { name, title, lead, fields, submit, run }) {
  const msg = h('p', { class: 'form-msg', role: 'alert', 'data-form-msg': name });
  const button = h('button', { class: 'btn primary', type: 'submit', 'data-action': name }, submit);
  const form = h('form', { class: 'account-form', 'data-form': name },
    h('h2', {}, title), lead ? h('p', { class: 'meta' }, lead) : null, fields, button, msg);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const values = Object.fromEntries(new FormData(form).entries());
    button.disabled = true;
    msg.className = 'form-msg';
    msg.textContent = '';
    try {
      const ok = await run(values);
      if (ok) {
        msg.className = 'form-msg ok';
        msg.textContent = ok;
      }
    } catch (err) {
      msg.className = 'form-msg error';
      msg.textContent = accountError(t, err, lang);
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

/**
 * The panel's contents for the current player.
 * @param {{t: Function, lang: string, me: object|null, onSignedUp: Function,
 *   onSwitched: Function, onSigningOut: Function, close: Function}} opts `onSignedUp(me)`:
 *   the same player is now an account (nothing to reload); `onSwitched(me)`: another
 *   player (signed in or out), the page is mounted again with the new session;
 *   `onSigningOut()`: this page signs out (its sockets are about to be closed).
 */
export function accountPanel({ t, lang, me, onSignedUp, onSwitched, onSigningOut, close }) {
  const closeBtn = h('button', { class: 'btn ghost close', type: 'button', 'aria-label': t('action.close'), onclick: close }, '×');
  if (me?.account) {
    const username = me.account.username ?? me.name;
    return [
      h('div', { class: 'account-head' },
        h('p', { class: 'signed-in' }, t('account.signed_in_as'), ' ', h('strong', { class: 'name-cut', title: username, 'data-full-name': username }, username)),
        closeBtn),
      h('p', { class: 'account-links' },
        h('a', { class: 'btn small', href: href('player', username), 'data-action': 'my-profile', onclick: close }, t('account.profile')),
        h('a', { class: 'btn small', href: href('leaderboard'), onclick: close }, t('nav.leaderboard')),
        h('a', { class: 'btn small', href: href('analyse'), 'data-link': 'analyse', onclick: close }, t('nav.analyse')),
      h('a', { class: 'btn small', href: href('puzzles'), 'data-link': 'puzzles', onclick: close }, t('nav.puzzles'))),
      h('div', { class: 'account-forms' },
        accountForm(t, lang, {
          name: 'change-password',
          title: t('account.password_title'),
          lead: t('account.password_lead'),
          fields: [
            field('acc-old', t('account.old_password'), { name: 'old', type: 'password', autocomplete: 'current-password', required: true }),
            field('acc-new', t('account.new_password'), { name: 'new', type: 'password', autocomplete: 'new-password', required: true }),
          ],
          submit: t('account.password_submit'),
          run: async (v) => {
            await api.changePassword(v.old, v.new);
            return t('account.password_changed');
          },
        }),
        h('div', { class: 'account-form sign-out' },
          h('h2', {}, t('account.sign_out_title')),
          h('button', { class: 'btn', type: 'button', 'data-action': 'sign-out', onclick: () => signOut(false) }, t('account.sign_out')),
          h('button', { class: 'btn danger', type: 'button', 'data-action': 'sign-out-all', onclick: () => signOut(true) }, t('account.sign_out_all')),
          h('p', { class: 'meta' }, t('account.sign_out_hint'))),
        notificationsPanel(t),
      ),
    ];
  }

  async function signOut(all) {
    // The server closes this session's sockets (4001) as it signs out: not news here.
    onSigningOut?.();
    try {
      await api.signOut(all);
    } catch {
      // A session already gone (signed out everywhere from elsewhere) is signed out too.
    }
    onSwitched(await api.ensureGuest().catch(() => null));
  }

  return [
    h('div', { class: 'account-head' }, h('p', { class: 'lead' }, t('account.guest_lead')), closeBtn),
    // What a phone's header has no room for.
    h('p', { class: 'account-links' },
      h('a', { class: 'btn small', href: href('leaderboard'), onclick: close }, t('nav.leaderboard')),
      h('a', { class: 'btn small', href: href('analyse'), 'data-link': 'analyse', onclick: close }, t('nav.analyse')),
      h('a', { class: 'btn small', href: href('puzzles'), 'data-link': 'puzzles', onclick: close }, t('nav.puzzles'))),
    h('div', { class: 'account-forms' },
      accountForm(t, lang, {
        name: 'sign-up',
        title: t('account.sign_up_title'),
        lead: t('account.sign_up_lead'),
        fields: [
          field('acc-su-name', t('account.username'), {
            // The server judges the name and the password, so every refusal reads
            // the same, in the page's language.
            name: 'username', autocomplete: 'username', required: true,
            value: /^[A-Za-z0-9_-]{3,20}$/.test(me?.name ?? '') ? me.name : '',
          }),
          field('acc-su-pass', t('account.password'), { name: 'password', type: 'password', autocomplete: 'new-password', required: true }),
        ],
        submit: t('account.sign_up'),
        run: async (v) => {
          onSignedUp(await api.signUp(v.username.trim(), v.password));
          return null;
        },
      }),
      accountForm(t, lang, {
        name: 'sign-in',
        title: t('account.sign_in_title'),
        lead: t('account.sign_in_lead'),
        fields: [
          field('acc-si-name', t('account.username'), { name: 'username', autocomplete: 'username', maxlength: '20', required: true }),
          field('acc-si-pass', t('account.password'), { name: 'password', type: 'password', autocomplete: 'current-password', required: true }),
        ],
        submit: t('account.sign_in'),
        run: async (v) => {
          onSwitched(await api.signIn(v.username.trim(), v.password));
          return null;
        },
      }),
    ),
  ];
}

/** Opens or closes the panel element under the header with the current contents. */
export function drawPanel(el, open, opts) {
  el.hidden = !open;
  if (open) replace(el, accountPanel(opts));
  else replace(el);
}
