import { Description, Resource } from 'toolwright';

export const LENDING_POLICY = `# Lending policy

1. Check the applicant's credit before approving: a score under 600 needs a second officer.
2. Loans over 100,000 are processed on the priority tier.
3. A loan is cancelled only while it is pending.
`;

/** A document every client may read: the rules approvals follow. */
@Resource('loans://policy', { name: 'lending_policy', title: 'Lending policy', mimeType: 'text/markdown', tags: ['policy'] })
@Description('The rules every loan approval follows')
export class LendingPolicy {
  call(): string {
    return LENDING_POLICY;
  }
}
