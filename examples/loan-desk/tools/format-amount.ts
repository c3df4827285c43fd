import { Tool } from 'toolwright';

/** A helper that lives beside the tools but is never one: opted out explicitly. */
@Tool(false)
export class FormatAmount {
  call(amount: number): string {
    return new Intl.NumberFormat('en-IE', { style: 'currency', currency: 'EUR' }).format(amount);
  }
}
