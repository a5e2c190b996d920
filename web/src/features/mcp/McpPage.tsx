import { Page } from '@/components/ui/page';
import { PageHeader } from '@/components/ui/page-header';

export function McpPage() {
  return (
    <Page title="Client-side MCP tools">
      <PageHeader
        command="cat mcp/README.md"
        title="Client-side MCP tools"
        lead="Tools in the style of the Model Context Protocol that run entirely in the browser: no tool server to host, and your data stays on the page. The starter kit is MIT licensed."
      />
    </Page>
  );
}
