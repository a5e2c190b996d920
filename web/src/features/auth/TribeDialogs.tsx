import {
  type ComponentType,
  lazy,
  type ReactNode,
  type RefObject,
  Suspense,
  useRef,
  useState,
} from 'react';
import { preloadToasts } from '@/lib/toast';

interface DialogButtonProps {
  children: ReactNode;
  className?: string;
  /** Why the visitor joins the wait list (the wait-list dialog says it). */
  reason?: 'full' | 'payments-off' | undefined;
}

interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusTo?: RefObject<HTMLElement | null>;
  reason?: 'full' | 'payments-off' | undefined;
}

const loadLogin = () => import('./LoginDialog');
const loadWaitlist = () => import('./WaitlistDialog');

const LoginDialog = lazy(async () => ({ default: (await loadLogin()).LoginDialog }));
const WaitlistDialog = lazy(async () => ({ default: (await loadWaitlist()).WaitlistDialog }));

/**
 * A button that opens a modal whose code (and the dialog library) loads on demand: when the
 * pointer or focus comes near, or at the latest on the click. Once loaded the modal stays
 * mounted, so closing it hands focus back to the button.
 */
function LazyDialogButton({
  children,
  className,
  reason,
  preload,
  Dialog,
}: DialogButtonProps & { preload: () => Promise<unknown>; Dialog: ComponentType<DialogProps> }) {
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const warm = () => {
    void preload().catch(() => {});
    preloadToasts();
  };
  return (
    <>
      <button
        ref={button}
        type="button"
        className={className}
        aria-haspopup="dialog"
        aria-expanded={open}
        onPointerEnter={warm}
        onFocus={warm}
        onClick={() => {
          setLoaded(true);
          setOpen(true);
        }}
      >
        {children}
      </button>
      {loaded ? (
        <Suspense fallback={null}>
          <Dialog open={open} onOpenChange={setOpen} returnFocusTo={button} reason={reason} />
        </Suspense>
      ) : null}
    </>
  );
}

/** Opens the Member Login modal (login and reset-password views). */
export function LoginDialogButton({ children, className }: DialogButtonProps) {
  return (
    <LazyDialogButton className={className} preload={loadLogin} Dialog={LoginDialog}>
      {children}
    </LazyDialogButton>
  );
}

/** Opens the Join the Wait List modal. */
export function WaitlistDialogButton({ children, className, reason }: DialogButtonProps) {
  return (
    <LazyDialogButton
      className={className}
      reason={reason}
      preload={loadWaitlist}
      Dialog={WaitlistDialog}
    >
      {children}
    </LazyDialogButton>
  );
}
