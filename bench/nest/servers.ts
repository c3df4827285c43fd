/**
 * The contenders of bench/nest/run.ts, each loaded only in its own server process (a process serving
 * toolwright alone never loads Nest). Each starts `check_credit` over Streamable HTTP on 127.0.0.1
 * and answers its URL and a way to stop it.
 */
export interface Started {
  url: string;
  close(): Promise<unknown>;
}

/** The call the load generator makes (Ada Lovelace's known score is 812, band `excellent`). */
export const CALL = { name: 'check_credit', arguments: { applicant: 'Ada Lovelace' } };

export const CONTENDER_SERVERS: Record<string, (stateless: boolean) => Promise<Started>> = {
  'mcp-nest': async (stateless) => (await import('./mcp-nest-server')).start(stateless),
  toolwright: async (stateless) => (await import('./toolwright-server')).start(stateless),
  'toolwright-nest': async (stateless) => (await import('./toolwright-nest-server')).start(stateless),
};
