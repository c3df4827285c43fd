/**
 * The `toolSearch` option, over real HTTP on 127.0.0.1: tools/list answers the core set and the
 * search tool; on 2025-11-25 with sessions (the 1.x Client) what a session's search finds joins
 * that session's list and its client is told (tools/list_changed); on 2026-07-28 (the 2.x Client,
 * no sessions) the list stays, and the search answer carries the found tools, which are called by
 * name. A tool the caller may not see is never found.
 */
import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Tool } from 'toolwright';
import { createMcpServer, serveHttp, type McpHttpHandle, type McpMember } from 'toolwright/mcp';

@Tool('mcp', { name: 'echo', description: 'Echoes a word back.' })
class Echo {
  call() {
    return 'echo';
  }
}

@Tool('mcp', { name: 'current_weather', description: 'The weather now in a city.' })
class CurrentWeather {
  call() {
    return 'sunny';
  }
}

@Tool('mcp', { name: 'weather_forecast', description: 'The weather for the next days.' })
class WeatherForecast {
  call() {
    return 'rain tomorrow';
  }
}

@Tool('mcp', { name: 'run_payroll', description: 'Pays every employee their salary.', tags: ['hr'] })
class RunPayroll {
  call() {
    return 'paid';
  }
}

const TOOLS = [Echo, CurrentWeather, WeatherForecast, RunPayroll];
/** Nobody here is in HR: the payroll tool is hidden from every caller. */
const visible = (member: McpMember) => !member.tags.includes('hr');
const names = async (client: { listTools(): Promise<{ tools: Array<{ name: string }> }> }) => (await client.listTools()).tools.map((tool) => tool.name);

async function legacy(url: string): Promise<LegacyClient> {
  const client = new LegacyClient({ name: 'search-1x', version: '1.0.0' });
  await client.connect(new LegacyHttpTransport(new URL(url)));
  return client;
}

describe('createMcpServer({ toolSearch })', () => {
  let handle: McpHttpHandle;
  beforeAll(async () => {
    handle = await serveHttp({ name: 'search', version: '1.0.0', tools: TOOLS, visible, toolSearch: { core: ['echo'], limit: 3 } }, { port: 0 });
  });
  afterAll(async () => handle.close());

  it("2025-11-25 with sessions: the search adds the found tools to that session's list and sends list_changed; other sessions keep theirs", async () => {
    const [one, two] = [await legacy(handle.url), await legacy(handle.url)];
    try {
      const told = new Promise<void>((resolve) => one.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
      expect(await names(one)).toEqual(['echo', 'search_tools']);
      const found = await one.callTool({ name: 'search_tools', arguments: { query: 'weather now' } });
      expect(found.content).toEqual([
        {
          type: 'text',
          text: 'Found 2 tool(s), now available to call:\n- current_weather: The weather now in a city.\n- weather_forecast: The weather for the next days.',
        },
      ]);
      await told;
      expect(await names(one)).toEqual(['echo', 'current_weather', 'weather_forecast', 'search_tools']);
      expect(await names(two)).toEqual(['echo', 'search_tools']);
      expect((await one.callTool({ name: 'current_weather', arguments: {} })).content).toEqual([{ type: 'text', text: 'sunny' }]);
    } finally {
      await one.close();
      await two.close();
    }
  });

  it('2026-07-28: the list stays the core set; the answer carries the found tools, called by name', async () => {
    const client = new Client({ name: 'search-2x', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
    try {
      const found = await client.callTool({ name: 'search_tools', arguments: { query: 'forecast' } });
      expect(found.structuredContent).toEqual({
        tools: [expect.objectContaining({ name: 'weather_forecast', description: 'The weather for the next days.', inputSchema: expect.any(Object) })],
      });
      expect(await names(client)).toEqual(['echo', 'search_tools']);
      expect((await client.callTool({ name: 'weather_forecast', arguments: {} })).content).toEqual([{ type: 'text', text: 'rain tomorrow' }]);
    } finally {
      await client.close();
    }
  });

  it('never finds nor lists a tool the caller may not see, and answers a bad query as a tool error', async () => {
    const client = await legacy(handle.url);
    try {
      const hidden = await client.callTool({ name: 'search_tools', arguments: { query: 'pay employee salary payroll' } });
      expect(hidden.content).toEqual([{ type: 'text', text: "No tools match 'pay employee salary payroll'. Search again with other words." }]);
      expect(await names(client)).toEqual(['echo', 'search_tools']);
      await expect(client.callTool({ name: 'run_payroll', arguments: {} })).rejects.toThrow(/Unknown tool: run_payroll/);
      for (const [query, text] of [
        [42, "Invalid tool arguments: 'query' must be a few words; got 42."],
        ['x'.repeat(1001), "Invalid tool arguments: 'query' is 1001 characters long; at most 1000."],
      ] as const) {
        const answer = await client.callTool({ name: 'search_tools', arguments: { query } });
        expect([answer.isError, answer.content]).toEqual([true, [{ type: 'text', text }]]);
      }
    } finally {
      await client.close();
    }
  });

  it('checks the option: a served tool with the search tool\'s name, a bad limit, a bad core', () => {
    const make = (toolSearch: object) => () => createMcpServer({ name: 's', version: '1', tools: [Echo], toolSearch });
    expect(make({ name: 'echo' })).toThrow("createMcpServer: a served tool is named 'echo', the name of the search tool. Pass toolSearch: { name: '…' } with another name.");
    expect(make({ limit: 0 })).toThrow("createMcpServer: 'toolSearch.limit' must be a whole number from 1 to 50; got 0.");
    expect(make({ core: 'echo' })).toThrow("createMcpServer: 'toolSearch.core' must be a list of tool names; got 'echo'.");
    expect(make({ deferred: true })).toThrow(/deferred/);
  });
});
