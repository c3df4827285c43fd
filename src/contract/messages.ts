import type { MessageFn } from './field-model';

/**
 * Messages in class-validator's wording, for constraints declared through `@Field` or inline
 * shapes. Constraints declared with class-validator use class-validator's own messages.
 */
/** A message whose text names the property in place of `$property`. */
const template =
  (text: string): MessageFn =>
  (property) =>
    text.replace(/\$property/g, property);

export const messages = {
  required: template('$property is required'),
  string: template('$property must be a string'),
  number: template('$property must be a number conforming to the specified constraints'),
  integer: template('$property must be an integer number'),
  boolean: template('$property must be a boolean value'),
  date: template('$property must be a valid ISO 8601 date-time string'),
  object: template('$property must be an object'),
  array: template('$property must be an array'),
  union: (names: string[]): MessageFn => template(`$property must match one of: ${names.join(', ')}`),
  enum: (values: readonly unknown[]): MessageFn =>
    template(`$property must be one of the following values: ${values.map(String).join(', ')}`),
  notEmpty: template('$property should not be empty'),
  minLength: (n: number): MessageFn => template(`$property must be longer than or equal to ${n} characters`),
  maxLength: (n: number): MessageFn => template(`$property must be shorter than or equal to ${n} characters`),
  minimum: (n: number): MessageFn => template(`$property must not be less than ${n}`),
  maximum: (n: number): MessageFn => template(`$property must not be greater than ${n}`),
  pattern: (p: string): MessageFn => template(`$property must match /${p}/ regular expression`),
  minItems: (n: number): MessageFn => template(`$property must contain at least ${n} elements`),
  maxItems: (n: number): MessageFn => template(`$property must contain no more than ${n} elements`),
  uniqueItems: template("All $property's elements must be unique"),
  minProperties: template('$property should not be empty'),
  format: {
    email: template('$property must be an email'),
    uri: template('$property must be a URL address'),
    uuid: template('$property must be a UUID'),
    'date-time': template('$property must be a valid ISO 8601 date-time string'),
    date: template('$property must be a valid ISO 8601 date string (YYYY-MM-DD)'),
  } as Record<string, MessageFn>,
};
