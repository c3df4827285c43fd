// Loading this module declares every loan-desk tool.
export * from './approve-loan';
export * from './cancel-loan';
export * from './check-credit';
export * from './format-amount';
export * from './loan-service';
