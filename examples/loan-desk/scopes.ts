/** The loan desk's OAuth scopes: reading the loan book, and changing it. */
export const LOANS_READ = 'loans:read';
export const LOANS_WRITE = 'loans:write';
export const SCOPES = [LOANS_READ, LOANS_WRITE];
