// Using the kit: list the tools, read a resource, search, and pick one value out of a file.
// Run it in a page served by the site (or call setBaseUrl first), bundled by any ES module
// bundler such as Vite or esbuild.
import { callTool, handle, type SearchHit, setBaseUrl } from './src/mcpLocal';

async function main(): Promise<void> {
  // Only needed when the page is not on the site itself.
  if (location.hostname === 'localhost' && location.port !== '8080') {
    setBaseUrl('http://localhost:8080');
  }

  const list = (await handle('tools/list')) as { tools: Array<{ name: string }> };
  console.log('tools:', list.tools.map((t) => t.name).join(', '));

  const { resources } = (await handle('resources/list')) as { resources: Array<{ uri: string }> };
  console.log(
    'resources:',
    resources.map((r) => r.uri),
  );

  const hits = (await callTool('search', { query: 'neural trader', limit: 3 })) as SearchHit[];
  for (const hit of hits) console.log(`${hit.title} (${hit.uri}): ${hit.text.slice(0, 100)}`);

  const price = await callTool('read_json_path', {
    uri: '/content/services.json',
    path: 'sessions[1].price',
  });
  console.log('second session:', price);

  try {
    await callTool('resources/read', { uri: 'content/missing.json' });
  } catch (err) {
    // 'Tool execution failed'; the cause says why: 'Resource not found: /content/missing.json (404)'.
    if (err instanceof Error) console.log(err.message, '-', String(err.cause));
  }
}

main().catch((err: unknown) => console.error(err));
