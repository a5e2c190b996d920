/**
 * Reads the JSON the server embeds in a page as a `<script type="application/json">` element
 * (#tribe-content, #tribe-config). Absent, empty or broken, it is `undefined`: a broken element
 * must not take the page down, since every reader has a built-in default.
 */
export function readJsonScript(id: string): unknown {
  if (typeof document === 'undefined') return undefined;
  const text = document.getElementById(id)?.textContent;
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
