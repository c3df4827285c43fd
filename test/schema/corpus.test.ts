import { schemaOf } from 'toolwright';
import * as corpus from '../fixtures/contracts/corpus';
import { checked } from '../helpers/schema';

const input = (dto: Function) => checked(schemaOf(dto));

describe('schema semantics, pinned on a corpus of contracts', () => {
  it('scalars: integers are integer, dates are date-time strings', () => {
    expect(input(corpus.Scalars)).toMatchInlineSnapshot(`
{
  "additionalProperties": false,
  "properties": {
    "active": {
      "type": "boolean",
    },
    "count": {
      "type": "integer",
    },
    "createdAt": {
      "format": "date-time",
      "type": "string",
    },
    "name": {
      "minLength": 1,
      "type": "string",
    },
    "ratio": {
      "type": "number",
    },
  },
  "required": [
    "name",
    "ratio",
    "count",
    "active",
    "createdAt",
  ],
  "type": "object",
}
`);
  });

  it('enums: string and numeric enums typed, IsIn, IsNotIn, a literal true, null joining an enum', () => {
    expect(input(corpus.Enums)).toMatchInlineSnapshot(`
{
  "additionalProperties": false,
  "properties": {
    "accepted": {
      "enum": [
        true,
      ],
      "type": "boolean",
    },
    "colour": {
      "enum": [
        "red",
        "green",
      ],
      "type": "string",
    },
    "letter": {
      "enum": [
        "a",
        "b",
      ],
      "type": "string",
    },
    "maybe": {
      "enum": [
        "x",
        "y",
        null,
      ],
      "type": [
        "string",
        "null",
      ],
    },
    "priority": {
      "enum": [
        1,
        2,
      ],
      "type": "integer",
    },
    "username": {
      "minLength": 1,
      "not": {
        "enum": [
          "root",
        ],
      },
      "type": "string",
    },
  },
  "required": [
    "colour",
    "priority",
    "letter",
    "username",
    "accepted",
  ],
  "type": "object",
}
`);
  });

  it('optionality: nullable, optional, usable literal defaults (0 and false count), function defaults never emitted', () => {
    expect(input(corpus.Optionality)).toMatchInlineSnapshot(`
{
  "additionalProperties": false,
  "properties": {
    "dryRun": {
      "default": false,
      "type": "boolean",
    },
    "mandatory": {
      "minLength": 1,
      "type": "string",
    },
    "nickname": {
      "type": [
        "string",
        "null",
      ],
    },
    "note": {
      "type": "string",
    },
    "requestedAt": {
      "format": "date-time",
      "type": "string",
    },
    "retries": {
      "default": 0,
      "type": "number",
    },
    "since": {
      "default": "2024-01-01T00:00:00.000Z",
      "format": "date-time",
      "type": "string",
    },
  },
  "required": [
    "mandatory",
  ],
  "type": "object",
}
`);
  });

  it('emptiness floors on required strings, arrays and free-form objects; allowEmpty and explicit bounds win', () => {
    expect(input(corpus.Floors)).toMatchInlineSnapshot(`
{
  "additionalProperties": false,
  "properties": {
    "attributes": {
      "minProperties": 1,
      "type": "object",
    },
    "code": {
      "minLength": 3,
      "type": "string",
    },
    "comment": {
      "type": "string",
    },
    "subtitle": {
      "type": "string",
    },
    "tags": {
      "items": {
        "type": "string",
      },
      "minItems": 1,
      "type": "array",
    },
    "title": {
      "minLength": 1,
      "type": "string",
    },
  },
  "required": [
    "title",
    "tags",
    "attributes",
    "comment",
    "code",
  ],
  "type": "object",
}
`);
  });

  it('formats from class-validator', () => {
    expect(input(corpus.Formats)).toMatchInlineSnapshot(`
{
  "additionalProperties": false,
  "properties": {
    "decidedAt": {
      "format": "date-time",
      "type": "string",
    },
    "email": {
      "format": "email",
      "minLength": 1,
      "type": "string",
    },
    "endsOn": {
      "format": "date-time",
      "minLength": 1,
      "type": "string",
    },
    "homepage": {
      "format": "uri",
      "minLength": 1,
      "type": "string",
    },
    "id": {
      "format": "uuid",
      "type": "string",
    },
    "startsOn": {
      "format": "date-time",
      "minLength": 1,
      "type": "string",
    },
  },
  "required": [
    "email",
    "homepage",
    "id",
    "startsOn",
    "endsOn",
    "decidedAt",
  ],
  "type": "object",
}
`);
  });

  it('numeric constraints', () => {
    expect(input(corpus.Numbers)).toMatchInlineSnapshot(`
{
  "additionalProperties": false,
  "properties": {
    "delta": {
      "exclusiveMaximum": 0,
      "type": "number",
    },
    "price": {
      "exclusiveMinimum": 0,
      "type": "number",
    },
    "rating": {
      "maximum": 10,
      "minimum": 1,
      "type": "integer",
    },
    "step": {
      "multipleOf": 5,
      "type": "integer",
    },
  },
  "required": [
    "rating",
    "price",
    "delta",
    "step",
  ],
  "type": "object",
}
`);
  });

  it('string constraints', () => {
    expect(input(corpus.Strings)).toMatchInlineSnapshot(`
{
  "additionalProperties": false,
  "properties": {
    "currency": {
      "minLength": 1,
      "pattern": "^[A-Z]{3}$",
      "type": "string",
    },
    "required": {
      "minLength": 1,
      "type": "string",
    },
    "short": {
      "maxLength": 5,
      "minLength": 2,
      "type": "string",
    },
    "sized": {
      "maxLength": 8,
      "minLength": 3,
      "type": "string",
    },
  },
  "required": [
    "short",
    "sized",
    "currency",
    "required",
  ],
  "type": "object",
}
`);
  });

  it('arrays: items from { each: true }, @Type and type thunks; size and uniqueness', () => {
    expect(input(corpus.Arrays)).toMatchInlineSnapshot(`
{
  "additionalProperties": false,
  "properties": {
    "counts": {
      "items": {
        "minimum": 0,
        "type": "integer",
      },
      "minItems": 1,
      "type": "array",
    },
    "moreTags": {
      "items": {
        "additionalProperties": false,
        "properties": {
          "label": {
            "minLength": 1,
            "type": "string",
          },
          "weight": {
            "type": "number",
          },
        },
        "required": [
          "label",
        ],
        "type": "object",
      },
      "type": "array",
    },
    "names": {
      "items": {
        "type": "string",
      },
      "maxItems": 3,
      "minItems": 1,
      "type": "array",
    },
    "tags": {
      "items": {
        "additionalProperties": false,
        "properties": {
          "label": {
            "minLength": 1,
            "type": "string",
          },
          "weight": {
            "type": "number",
          },
        },
        "required": [
          "label",
        ],
        "type": "object",
      },
      "minItems": 1,
      "type": "array",
    },
    "unique": {
      "items": {
        "type": "string",
      },
      "minItems": 1,
      "type": "array",
      "uniqueItems": true,
    },
  },
  "required": [
    "names",
    "counts",
    "unique",
    "tags",
  ],
  "type": "object",
}
`);
  });

  it('unions as anyOf', () => {
    expect(input(corpus.Unions)).toMatchInlineSnapshot(`
{
  "additionalProperties": false,
  "properties": {
    "payment": {
      "anyOf": [
        {
          "additionalProperties": false,
          "properties": {
            "kind": {
              "enum": [
                "card",
              ],
              "type": "string",
            },
            "number": {
              "maxLength": 16,
              "minLength": 16,
              "type": "string",
            },
          },
          "required": [
            "kind",
            "number",
          ],
          "type": "object",
        },
        {
          "additionalProperties": false,
          "properties": {
            "iban": {
              "minLength": 1,
              "type": "string",
            },
            "kind": {
              "enum": [
                "transfer",
              ],
              "type": "string",
            },
          },
          "required": [
            "kind",
            "iban",
          ],
          "type": "object",
        },
      ],
    },
    "reference": {
      "anyOf": [
        {
          "type": "string",
        },
        {
          "type": "integer",
        },
        {
          "type": "null",
        },
      ],
    },
  },
  "required": [
    "payment",
  ],
  "type": "object",
}
`);
  });

  it('nested classes inline, nullable nested objects', () => {
    expect(input(corpus.Nested)).toMatchInlineSnapshot(`
{
  "additionalProperties": false,
  "properties": {
    "address": {
      "additionalProperties": false,
      "properties": {
        "city": {
          "minLength": 1,
          "type": "string",
        },
        "street": {
          "minLength": 1,
          "type": "string",
        },
      },
      "required": [
        "street",
        "city",
      ],
      "type": "object",
    },
    "billing": {
      "additionalProperties": false,
      "properties": {
        "city": {
          "minLength": 1,
          "type": "string",
        },
        "street": {
          "minLength": 1,
          "type": "string",
        },
      },
      "required": [
        "street",
        "city",
      ],
      "type": [
        "object",
        "null",
      ],
    },
  },
  "required": [
    "address",
  ],
  "type": "object",
}
`);
  });

  it('recursive contracts use $defs and $ref; a reference back to the root is #', () => {
    expect(input(corpus.Forest)).toMatchInlineSnapshot(`
{
  "$defs": {
    "TreeNode": {
      "additionalProperties": false,
      "properties": {
        "children": {
          "items": {
            "$ref": "#/$defs/TreeNode",
          },
          "type": "array",
        },
        "name": {
          "minLength": 1,
          "type": "string",
        },
      },
      "required": [
        "name",
      ],
      "type": "object",
    },
  },
  "additionalProperties": false,
  "properties": {
    "trees": {
      "items": {
        "$ref": "#/$defs/TreeNode",
      },
      "minItems": 1,
      "type": "array",
    },
  },
  "required": [
    "trees",
  ],
  "type": "object",
}
`);
    expect(input(corpus.TreeNode)).toMatchInlineSnapshot(`
{
  "additionalProperties": false,
  "properties": {
    "children": {
      "items": {
        "$ref": "#",
      },
      "type": "array",
    },
    "name": {
      "minLength": 1,
      "type": "string",
    },
  },
  "required": [
    "name",
  ],
  "type": "object",
}
`);
    expect(input(corpus.Company)).toMatchInlineSnapshot(`
{
  "$defs": {
    "Employee": {
      "additionalProperties": false,
      "properties": {
        "name": {
          "minLength": 1,
          "type": "string",
        },
        "team": {
          "$ref": "#/$defs/Team",
        },
      },
      "required": [
        "name",
      ],
      "type": "object",
    },
    "Team": {
      "additionalProperties": false,
      "properties": {
        "members": {
          "items": {
            "$ref": "#/$defs/Employee",
          },
          "minItems": 1,
          "type": "array",
        },
        "title": {
          "minLength": 1,
          "type": "string",
        },
      },
      "required": [
        "title",
        "members",
      ],
      "type": "object",
    },
  },
  "additionalProperties": false,
  "properties": {
    "teams": {
      "items": {
        "$ref": "#/$defs/Team",
      },
      "minItems": 1,
      "type": "array",
    },
  },
  "required": [
    "teams",
  ],
  "type": "object",
}
`);
  });

  it('ambient fields never appear', () => {
    expect(input(corpus.WithAmbient)).toMatchInlineSnapshot(`
{
  "additionalProperties": false,
  "properties": {
    "query": {
      "minLength": 1,
      "type": "string",
    },
  },
  "required": [
    "query",
  ],
  "type": "object",
}
`);
  });

  it('inheritance: parent fields first, the child’s own declaration wins', () => {
    expect(input(corpus.DerivedRequest)).toMatchInlineSnapshot(`
{
  "additionalProperties": false,
  "properties": {
    "limit": {
      "description": "Child limit",
      "maximum": 100,
      "type": "number",
    },
    "requester": {
      "description": "Who asks",
      "minLength": 1,
      "type": "string",
    },
    "urgent": {
      "type": "boolean",
    },
  },
  "required": [
    "requester",
    "limit",
    "urgent",
  ],
  "type": "object",
}
`);
  });

  it('a NestJS DTO with only class-validator decorators is a complete contract', () => {
    expect(input(corpus.CreateUserDto)).toMatchInlineSnapshot(`
{
  "additionalProperties": false,
  "properties": {
    "age": {
      "minimum": 18,
      "type": "integer",
    },
    "email": {
      "format": "email",
      "minLength": 1,
      "type": "string",
    },
    "name": {
      "minLength": 2,
      "type": "string",
    },
    "role": {
      "enum": [
        "admin",
        "member",
      ],
      "type": "string",
    },
  },
  "required": [
    "name",
    "email",
    "role",
  ],
  "type": "object",
}
`);
  });

  it('@Field constraint options, description and example', () => {
    expect(input(corpus.Described)).toMatchInlineSnapshot(`
{
  "additionalProperties": false,
  "properties": {
    "amount": {
      "description": "Amount in cents",
      "examples": [
        1250,
      ],
      "minimum": 0,
      "type": "number",
    },
    "comment": {
      "description": "Comment",
      "maxLength": 140,
      "minLength": 1,
      "pattern": "^[^<>]*$",
      "type": "string",
    },
    "contact": {
      "format": "email",
      "type": "string",
    },
  },
  "required": [
    "amount",
    "comment",
    "contact",
  ],
  "type": "object",
}
`);
  });

  it('output direction: every field required unless declared optional, no floors, no defaults', () => {
    expect(checked(schemaOf(corpus.Receipt, { direction: 'output' }))).toMatchInlineSnapshot(`
{
  "additionalProperties": false,
  "properties": {
    "id": {
      "type": "string",
    },
    "issuedAt": {
      "format": "date-time",
      "type": "string",
    },
    "memo": {
      "type": "string",
    },
    "voidedBy": {
      "type": [
        "string",
        "null",
      ],
    },
  },
  "required": [
    "id",
    "voidedBy",
    "issuedAt",
  ],
  "type": "object",
}
`);
  });
});
