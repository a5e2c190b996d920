/** Shown while a page's code chunk loads. */
export function PageLoading() {
  return (
    <div className="flex min-h-[50vh] items-center justify-center px-4">
      <p role="status" aria-live="polite" className="font-mono text-sm text-muted">
        <span className="text-term-green">$</span> loading module
        <span className="ml-1 inline-block h-4 w-2 translate-y-0.5 bg-term-green motion-safe:animate-blink" />
        <span className="sr-only">Loading page…</span>
      </p>
    </div>
  );
}
