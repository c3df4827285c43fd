// Loading this module declares the loan desk's resources, resource template, prompt and completions.
export * from './lending-policy';
export * from './loan-record';
export * from './review-loan';
