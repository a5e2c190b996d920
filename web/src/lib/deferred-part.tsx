import {
  type ComponentType,
  lazy,
  memo,
  Suspense,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { appLinkPath, useLocation, useNavigate } from './router';

/** What shows that someone is about to use a part: a pointer or the focus arriving, a touch. */
const INTENT_EVENTS = ['pointerover', 'focusin', 'touchstart'] as const;

const ATTRIBUTE = 'data-deferred-part';

/** True when the server's HTML of the part named `name` is in the document (being hydrated). */
function serverHtmlOf(name: string): boolean {
  return document.querySelector(`[${ATTRIBUTE}="${name}"]`)?.hasChildNodes() === true;
}

export interface DeferredPartOptions {
  /** Called on a click on one of the part's app links while its code is still away. */
  onLinkClick?: () => void;
}

/**
 * A part of a prerendered page whose code loads only when someone reaches for it (a pointer over
 * it, the focus in it, a touch). Until then hydration leaves its server HTML in place as it is (a
 * Suspense boundary React has not hydrated), so a first visit neither downloads nor runs its code;
 * rendered afresh (a client-side visit, the server) it loads at once. A click on one of its app
 * links before the code has arrived navigates inside the app as the link itself would.
 *
 * Only for parts that read nothing from the browser on their first render, so the HTML kept is
 * the HTML they would render, and with props that do not change while the page is shown. The
 * wrapper is `display: contents`: it takes no room of its own.
 */
export function deferredPart<P extends object>(
  name: string,
  load: () => Promise<ComponentType<P>>,
  options: DeferredPartOptions = {},
): ComponentType<P> {
  let want: () => void = () => {};
  const wanted = new Promise<void>((resolve) => {
    want = resolve;
  });
  // Set once the part's own components run in the browser, whose links then handle clicks.
  let live = false;
  const Lazy = lazy(async () => {
    await wanted;
    const Part = await load();
    function LivePart(props: P) {
      useLayoutEffect(() => {
        live = true;
      }, []);
      return <Part {...props} />;
    }
    return { default: LivePart };
  });

  function DeferredPart(props: P) {
    const ref = useRef<HTMLDivElement>(null);
    const navigate = useNavigate();
    const location = useLocation();
    const [firstLocation] = useState(location);
    // Decided in render, so that the server's pass and a fresh render go on without a wait
    // (resolving the promise again does nothing). A new location means an update that would
    // reach into the part, which React can apply only once it has hydrated the part: load it.
    if (typeof document === 'undefined' || !serverHtmlOf(name) || location !== firstLocation) {
      want();
    }

    useEffect(() => {
      const element = ref.current;
      if (element === null || live) return;
      // No server HTML kept (the page was rendered afresh over it): nothing to wait for.
      if (!element.hasChildNodes()) {
        want();
        return;
      }
      const inside = (event: Event) =>
        event.target instanceof Node && element.contains(event.target);
      const onIntent = (event: Event) => {
        if (inside(event)) want();
      };
      const onClick = (event: MouseEvent) => {
        if (live || !inside(event) || !(event.target instanceof Element)) return;
        want();
        const anchor = event.target.closest('a');
        const to = anchor === null ? null : appLinkPath(event, anchor);
        if (to === null) return;
        event.preventDefault();
        options.onLinkClick?.();
        navigate(to);
      };
      // On the window, in the capture phase: React stops intent events that reach a part it has
      // not hydrated at its root, and a click there would otherwise load the page anew.
      for (const type of INTENT_EVENTS) {
        window.addEventListener(type, onIntent, { capture: true, passive: true });
      }
      window.addEventListener('click', onClick, { capture: true });
      return () => {
        for (const type of INTENT_EVENTS) window.removeEventListener(type, onIntent, true);
        window.removeEventListener('click', onClick, true);
      };
    }, [navigate]);

    return (
      <div ref={ref} data-deferred-part={name} className="contents">
        <Suspense fallback={null}>
          <Lazy {...props} />
        </Suspense>
      </div>
    );
  }
  // Memoised: new props from a re-rendered parent would likewise have to reach into the part.
  return memo(DeferredPart) as unknown as ComponentType<P>;
}
