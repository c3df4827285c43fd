/** The billing team's tools: mounted into the gateway under the namespace `billing`. */
import { Expects, Field, SemanticHints, Tool } from 'toolwright';

class InvoiceInput {
  @Field() customer!: string;
  @Field() cents!: number;
}

@Tool('mcp', { name: 'invoice', description: 'Issues an invoice to a customer', tags: ['finance'] })
@SemanticHints('idempotent')
@Expects(InvoiceInput)
export class Invoice {
  call(input: InvoiceInput) {
    return `invoice for ${input.customer}: ${(input.cents / 100).toFixed(2)} EUR`;
  }
}

@Tool('mcp', { name: 'revenue', description: 'This month’s revenue', tags: ['finance'] })
@SemanticHints('readOnly')
export class Revenue {
  call() {
    return '12,400.00 EUR';
  }
}
