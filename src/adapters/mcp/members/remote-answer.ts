/**
 * A remote server's own answer to a resources/read or prompts/get, as the value of the proxied
 * member's run: the served answer passes it through (copied), instead of rendering a local
 * member's return value.
 */
export class RemoteAnswer<T> {
  constructor(readonly answer: T) {}
}
