/**
 * The loan desk (examples/loan-desk) for the `toolwright` command, from a clone of this repository:
 *
 *   npm run build && npx toolwright list
 *   npx toolwright call check_credit --args '{"applicant": "ada"}'
 *   npx toolwright serve mcp --stdio
 *
 * The TypeScript sources load through the repository's @swc/core.
 */
module.exports = {
  import: ['./examples/loan-desk/tools'],
  adapters: ['mcp', 'openai'],
  serve: {
    mcp: { server: './examples/loan-desk/server#loanDeskServer', port: 3000 },
  },
};
