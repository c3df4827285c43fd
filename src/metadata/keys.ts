/** reflect-metadata keys. Internal: read facts through the registry and contract layers. */
export const KEYS = {
  tool: 'toolwright:tool',
  toolMethods: 'toolwright:tool-methods',
  version: 'toolwright:version',
  description: 'toolwright:description',
  hints: 'toolwright:hints',
  expects: 'toolwright:expects',
  exposes: 'toolwright:exposes',
  failsOn: 'toolwright:fails-on',
  fields: 'toolwright:fields',
  inline: 'toolwright:inline',
  schemaName: 'toolwright:schema-name',
  schemaKeywords: 'toolwright:schema-keywords',
} as const;
