/**
 * The benchmark's tool: one input DTO (class-validator decorators, read by toolwright too, so every
 * contender validates the same rules) and one output.
 */
import { IsBoolean, IsEmail, IsIn, IsInt, IsOptional, IsString, IsUUID, Max, MaxLength, Min } from 'class-validator';
import { Expects, Exposes, Field, Tool } from 'toolwright';

export class QuoteInput {
  @Field() @IsUUID() customerId!: string;
  @Field() @IsEmail() email!: string;
  @Field() @IsInt() @Min(1) @Max(1_000_000) amount!: number;
  @Field() @IsInt() @Min(1) @Max(360) months!: number;
  @Field({ enum: ['standard', 'express', 'priority'] }) @IsIn(['standard', 'express', 'priority']) tier!: string;
  @Field({ optional: true }) @IsOptional() @IsBoolean() insured?: boolean;
  @Field({ optional: true }) @IsOptional() @IsString() @MaxLength(200) note?: string;
}

export class Quote {
  @Field() quoteId!: string;
  @Field() monthly!: number;
  @Field() total!: number;
}

export function quote(input: QuoteInput): Quote {
  const rate = input.tier === 'priority' ? 0.05 : input.tier === 'express' ? 0.06 : 0.07;
  const total = Math.round(input.amount * (1 + rate * (input.months / 12)) * 100) / 100;
  return { quoteId: `q-${input.customerId.slice(0, 8)}`, monthly: Math.round((total / input.months) * 100) / 100, total };
}

@Tool('http', { name: 'quote', description: 'Prices a loan' })
@Expects(QuoteInput)
@Exposes(Quote)
export class QuoteTool {
  call(input: QuoteInput): Quote {
    return quote(input);
  }
}

export const BODY = JSON.stringify({
  customerId: '6f1c9a52-3b0e-4c52-9a8e-1f2d3c4b5a60',
  email: 'ada@example.com',
  amount: 25000,
  months: 48,
  tier: 'express',
  insured: true,
  note: 'first loan',
});
