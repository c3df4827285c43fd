/**
 * bench/search: tool search on a large catalogue. Tokens of the tool list a request carries with
 * search off (every tool) and on (a core set, the search function and the tools its search found),
 * and the top-5 recall of the search on the kept query set. Measured quantities, not timings: the
 * numbers are the same on every machine. See bench/search/measure.ts.
 */
import { fmt, machine, markdownTable, writeReport } from '../lib/stats';
import { catalogue, CORE, LIMIT, measureSearch } from './measure';

const m = measureSearch();
const percent = (value: number) => `${fmt(value * 100, 1)}%`;
const fewer = 1 - m.tokensOn / m.tokensOff;
const goals = [
  `tokens: **${fewer >= 0.7 ? 'met' : 'not met'}** (goal ≥ 70% fewer), ${percent(fewer)} fewer`,
  `recall: **${m.recall >= 0.95 ? 'met' : 'not met'}** (goal ≥ 95% top-5 recall), ${percent(m.recall)}`,
];
const report = [
  '## Tool search (`bench/search`)',
  '',
  `${machine()}. \`bench/search/run.ts\`; measured quantities (tokens, recall), not timings.`,
  '',
  `A catalogue of ${m.tools} tools in ${new Set(catalogue().map((tool) => tool.domain)).size} domains (payments, CRM, support, email, calendar, files, git, CI, cloud,`,
  'databases, monitoring, chat, projects, HR, accounting, a shop, shipping, marketing, analytics, maps and',
  'weather, travel, a wiki, identity, smart home, health, documents, social media, legal, education), each with',
  `a description and described input fields (bench/search/catalogue.json), and ${m.queries} requests with their`,
  'expected tool (bench/search/queries.json): the user\'s words, and the few words a model sends to',
  '`search_tools` for them. Tokens: the Chat Completions `tools` array as JSON, counted with gpt-tokenizer',
  `(o200k_base). Search on lists the core set (${CORE.join(', ')}), the \`search_tools\` function, and the`,
  `${LIMIT} tools the request's search found.`,
  '',
  ...goals.map((goal) => `- ${goal}.`),
  '',
  markdownTable(
    ['measure', 'value'],
    [
      ['tokens of the tool list, search off (every tool)', fmt(m.tokensOff, 0)],
      ['tokens of the tool list, search on, before any search (core + search function)', fmt(m.tokensCore, 0)],
      ['tokens of the tool list, search on, after the search (mean; max)', `${fmt(m.tokensOn, 0)}; ${fmt(m.tokensOnMax, 0)}`],
      ['fewer tokens per request, search on', percent(fewer)],
      ["top-5 recall, the model's search words", percent(m.recall)],
      ["top-5 recall, the user's own words searched as they are", percent(m.recallRequest)],
    ],
  ),
  '',
  "The model's search words were written for this set by the person who wrote the catalogue, so the first",
  "recall is an upper bound of what a model's own words reach. The user's words, searched as they are, are",
  'the lexical floor: requests that share no word with their tool ("is it raining in Lisbon") are not found',
  'without a model in between, which is why the search function asks the model for the intent in a few words.',
  'Search on costs one more round trip the first time a tool is needed (the `search_tools` call and its short',
  'answer: the found names and descriptions); the tokens above are those of each request\'s tool list.',
  '',
].join('\n');
writeReport('search', report);
