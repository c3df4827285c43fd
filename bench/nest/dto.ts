/** The input and output of bench/nest's `check_credit`, as the loan desk declares them, shared by the toolwright contenders. */
import { IsString, MaxLength } from 'class-validator';
import { Field, Integer } from 'toolwright';

export class CheckCreditInput {
  @Field({ description: 'Full name of the applicant' }) @IsString() @MaxLength(200) applicant!: string;
}

export class CreditReport {
  @Field({ type: () => Integer, description: 'Score between 300 and 850' }) score!: number;
  @Field({ enum: ['poor', 'fair', 'good', 'excellent'] }) band!: string;
}
