import { Download } from 'lucide-react';
import { buttonClasses } from '@/components/ui/button';
import { Page } from '@/components/ui/page';
import { PageHeader } from '@/components/ui/page-header';

/** Served by the Go server, built from the same content files the site serves. */
export const STARTER_KIT_URL = '/downloads/client-side-mcp-tools.zip';

export function McpPage() {
  return (
    <Page title="Client-side MCP tools">
      <PageHeader
        command="cat mcp/README.md"
        title="Client-side MCP tools"
        lead="Tools in the style of the Model Context Protocol that run entirely in the browser: no tool server to host, and your data stays on the page. The starter kit is MIT licensed."
      />
      <a
        href={STARTER_KIT_URL}
        download="client-side-mcp-tools.zip"
        className={buttonClasses('primary', 'lg', 'mt-8')}
      >
        <Download size={18} aria-hidden="true" />
        Download ZIP Package
      </a>
    </Page>
  );
}
