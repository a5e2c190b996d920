/**
 * This browser's Web Push: the service worker (`/sw.js`, its own file, registered after the page
 * loaded so it never competes with the page) and the push subscription the server sends to. The
 * browser's permission prompt comes only from `turnOnPush`, which a button press calls.
 */
import {
  addPushSubscription,
  getPushKey,
  type PushSubscriptionBody,
  removePushSubscription,
} from './api';

/** Whether this browser can receive push at all. */
export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
  );
}

/** What the browser says about notifications for this site. */
export function pushPermission(): NotificationPermission | 'unsupported' {
  return pushSupported() ? Notification.permission : 'unsupported';
}

let registering: Promise<ServiceWorkerRegistration> | null = null;

/** Registers `/sw.js` once the page has loaded (at once when it already has). */
export function registerServiceWorker(): Promise<ServiceWorkerRegistration> | null {
  if (!pushSupported()) return null;
  if (registering) return registering;
  registering = new Promise<void>((resolve) => {
    if (document.readyState === 'complete') resolve();
    else window.addEventListener('load', () => resolve(), { once: true });
  }).then(() => navigator.serviceWorker.register('/sw.js', { scope: '/' }));
  registering.catch(() => {
    registering = null;
  });
  return registering;
}

/** Base64url (the server's key) to the bytes `PushManager.subscribe` takes. */
export function base64UrlToBytes(value: string): Uint8Array<ArrayBuffer> {
  const padded = value
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(value.length / 4) * 4, '=');
  const raw = atob(padded);
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i += 1) out[i] = raw.charCodeAt(i);
  return out;
}

/** The subscription as the server takes it. */
export function subscriptionBody(sub: PushSubscription): PushSubscriptionBody {
  const json = sub.toJSON();
  return {
    endpoint: sub.endpoint,
    keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
  };
}

/** This browser's current subscription, if push is on here. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  const pending = registerServiceWorker();
  if (!pending) return null;
  const reg = await pending;
  return reg.pushManager.getSubscription();
}

/**
 * Asks the browser for permission, subscribes with the site's key and gives the subscription to
 * the server. `denied` when the member (or the browser) said no.
 */
export async function turnOnPush(): Promise<'on' | 'denied'> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return 'denied';
  const pending = registerServiceWorker();
  if (!pending) return 'denied';
  await pending;
  const reg = await navigator.serviceWorker.ready;
  const { public_key } = await getPushKey();
  const sub =
    (await reg.pushManager.getSubscription()) ??
    (await reg.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: base64UrlToBytes(public_key),
    }));
  await addPushSubscription(subscriptionBody(sub));
  return 'on';
}

/** Tells the server to stop and ends this browser's subscription. */
export async function turnOffPush(): Promise<void> {
  const sub = await currentSubscription();
  if (!sub) return;
  await removePushSubscription(sub.endpoint);
  await sub.unsubscribe();
}
