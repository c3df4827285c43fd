import type { MessageFn } from './field-model';

/**
 * Messages in class-validator's wording, for constraints declared through `@Field` or inline
 * shapes. Constraints declared with class-validator use class-validator's own messages.
 */
const render =
  (template: string): MessageFn =>
  (property) =>
    template.replace(/\$property/g, property);

export const messages = {
  required: render('$property is required'),
  string: render('$property must be a string'),
  number: render('$property must be a number conforming to the specified constraints'),
  integer: render('$property must be an integer number'),
  boolean: render('$property must be a boolean value'),
  date: render('$property must be a valid ISO 8601 date-time string'),
  object: render('$property must be an object'),
  array: render('$property must be an array'),
  union: (names: string[]): MessageFn => render(`$property must match one of: ${names.join(', ')}`),
  enum: (values: readonly unknown[]): MessageFn =>
    render(`$property must be one of the following values: ${values.map(String).join(', ')}`),
  notEmpty: render('$property should not be empty'),
  minLength: (n: number): MessageFn => render(`$property must be longer than or equal to ${n} characters`),
  maxLength: (n: number): MessageFn => render(`$property must be shorter than or equal to ${n} characters`),
  minimum: (n: number): MessageFn => render(`$property must not be less than ${n}`),
  maximum: (n: number): MessageFn => render(`$property must not be greater than ${n}`),
  pattern: (p: string): MessageFn => render(`$property must match /${p}/ regular expression`),
  minItems: (n: number): MessageFn => render(`$property must contain at least ${n} elements`),
  maxItems: (n: number): MessageFn => render(`$property must contain no more than ${n} elements`),
  uniqueItems: render("All $property's elements must be unique"),
  minProperties: render('$property should not be empty'),
  format: {
    email: render('$property must be an email'),
    uri: render('$property must be a URL address'),
    uuid: render('$property must be a UUID'),
    'date-time': render('$property must be a valid ISO 8601 date-time string'),
    date: render('$property must be a valid ISO 8601 date string (YYYY-MM-DD)'),
  } as Record<string, MessageFn>,
};
