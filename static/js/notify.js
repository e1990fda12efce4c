// Notifications on this device (Web Push, docs/protocol.md "Notifications"): an account
// turns them on for a browser (the service worker `/sw.js` shows them), chooses which
// kinds it wants, and turns them off. Guests have none: the server keeps subscriptions
// for accounts only.

import * as api from './api.js';
import { h, replace } from './dom.js';

/** The kinds an account can choose, as `GET /api/push/settings` names them. */
export const KINDS = ['your_turn', 'offers', 'game_end', 'time_low'];

/** Whether this browser can receive Web Push at all. */
export function pushSupported() {
  return typeof navigator !== 'undefined' && 'serviceWorker' in navigator
    && typeof window !== 'undefined' && 'PushManager' in window && 'Notification' in window;
}

/** The bytes of a base64url string (the VAPID key as `subscribe` wants it). */
export function base64UrlBytes(s) {
  const b64 = s.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (s.length % 4)) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

async function registration() {
  return navigator.serviceWorker.register('/sw.js', { scope: '/' });
}

/** This browser's current subscription, if any. */
async function currentSubscription() {
  const reg = await navigator.serviceWorker.getRegistration('/');
  return reg ? reg.pushManager.getSubscription() : null;
}

/** Asks permission, subscribes with the server's key and registers the subscription. */
async function turnOn() {
  if (await Notification.requestPermission() !== 'granted') throw new Error('denied');
  const reg = await registration();
  const { key } = await api.pushKey();
  const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64UrlBytes(key) });
  await api.pushSubscribe(sub.toJSON());
}

async function turnOff() {
  const sub = await currentSubscription();
  if (!sub) return;
  await api.pushUnsubscribe(sub.endpoint).catch(() => {});
  await sub.unsubscribe();
}

/** The account panel's "Notifications" section. */
export function notificationsPanel(t) {
  const status = h('p', { class: 'form-msg', role: 'status', 'data-form-msg': 'notifications' });
  const device = h('div', { class: 'notify-device' });
  const kinds = h('fieldset', { class: 'notify-kinds', 'data-notify-kinds': '' },
    h('legend', {}, t('notify.kinds')));
  const section = h('div', { class: 'account-form notifications', 'data-form': 'notifications' },
    h('h2', {}, t('notify.title')), h('p', { class: 'meta' }, t('notify.lead')), device, kinds, status);

  const say = (text, ok) => {
    status.className = `form-msg${text ? (ok ? ' ok' : ' error') : ''}`;
    status.textContent = text ?? '';
  };

  async function drawDevice() {
    if (!pushSupported()) {
      replace(device, h('p', { class: 'meta' }, t('notify.unsupported')));
      return;
    }
    const on = await currentSubscription().catch(() => null);
    const button = h('button', { class: 'btn', type: 'button', 'data-action': on ? 'notify-off' : 'notify-on' },
      t(on ? 'notify.off' : 'notify.on'));
    button.addEventListener('click', async () => {
      button.disabled = true;
      say(null);
      try {
        if (on) await turnOff();
        else await turnOn();
        say(t(on ? 'notify.turned_off' : 'notify.turned_on'), true);
      } catch (err) {
        say(err?.message === 'denied' || Notification.permission === 'denied'
          ? t('notify.denied') : t('notify.failed'), false);
      }
      await drawDevice();
    });
    replace(device, button);
  }

  async function drawKinds() {
    let settings;
    try {
      settings = await api.pushSettings();
    } catch {
      return;
    }
    for (const kind of KINDS) {
      const box = h('input', { type: 'checkbox', id: `notify-${kind}`, name: kind, 'data-notify': kind });
      box.checked = !!settings[kind];
      box.addEventListener('change', async () => {
        const next = { ...settings, [kind]: box.checked };
        box.disabled = true;
        try {
          await api.setPushSettings(next);
          settings = next;
          say(t('notify.saved'), true);
        } catch {
          box.checked = !!settings[kind];
          say(t('notify.failed'), false);
        } finally {
          box.disabled = false;
        }
      });
      kinds.append(h('div', { class: 'check' }, box, h('label', { for: `notify-${kind}` }, t(`notify.kind_${kind}`))));
    }
  }

  drawDevice();
  drawKinds();
  return section;
}
