/**
 * Toasts for the whole app. The toast library is loaded on the first toast, not with the page:
 * until then <ToastRegion> (mounted once by the app's providers) renders nothing, and afterwards
 * it renders the library's <Toaster>. Toasts raised before the Toaster subscribes are replayed by
 * the library, so none is lost while it loads.
 */
import { createElement, type ReactElement, useSyncExternalStore } from 'react';

type Sonner = typeof import('sonner');

let sonner: Sonner | null = null;
let loading: Promise<Sonner> | null = null;
const listeners = new Set<() => void>();

function load(): Promise<Sonner> {
  if (!loading) {
    loading = import('sonner').then((module) => {
      sonner = module;
      for (const listener of listeners) listener();
      return module;
    });
    // A failed load (offline) may be retried by the next toast.
    loading.catch(() => {
      loading = null;
    });
  }
  return loading;
}

/** Starts loading the library ahead of a likely toast (e.g. when a form opens). */
export function preloadToasts(): void {
  void load().catch(() => {});
}

/** Options of one toast: an id lets a later toast with the same id replace it, or dismiss it. */
export interface ToastOptions {
  id?: string;
}

/**
 * Shows a toast once the library is loaded. The promise settles when the toast has been handed to
 * the library (or the library could not load), so a caller can wait for it before leaving the page.
 */
function show(
  kind: 'success' | 'error' | 'info',
  title: string,
  description?: string,
  options: ToastOptions = {},
): Promise<void> {
  return load()
    .then((module) => {
      module.toast[kind](title, { description, id: options.id });
    })
    .catch(() => {
      // Without the library there is nowhere to show the toast; the forms also show errors inline.
    });
}

export const toast = {
  /** A success message: a title and an optional line under it. */
  success: (title: string, description?: string, options?: ToastOptions) =>
    show('success', title, description, options),
  /** A destructive message, e.g. `toast.error('Error', error.message)`. */
  error: (title: string, description?: string, options?: ToastOptions) =>
    show('error', title, description, options),
  /** A neutral message. */
  info: (title: string, description?: string, options?: ToastOptions) =>
    show('info', title, description, options),
  /** Takes the toast with this id away, if it is showing (or about to). */
  dismiss: (id: string): void => {
    // Nothing can be showing before the library loads; once it loads, after any pending toast.
    if (loading) void loading.then((module) => module.toast.dismiss(id)).catch(() => {});
  },
};

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

const getLoaded = () => sonner;
const getServerLoaded = () => null;

/** Where toasts appear: nothing until the first toast, then the library's Toaster. */
export function ToastRegion(): ReactElement | null {
  const module = useSyncExternalStore(subscribe, getLoaded, getServerLoaded);
  if (!module) return null;
  return createElement(module.Toaster, {
    theme: 'dark',
    position: 'bottom-right',
    richColors: true,
    closeButton: true,
    toastOptions: { className: 'font-mono' },
  });
}
