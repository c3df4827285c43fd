/**
 * The DTOs the loan desk's HTTP controller and its tools share: one class-validator class
 * validates a controller body (Nest's `ValidationPipe`) and a tool's input (toolwright) alike.
 * `@ApiProperty` documents them for Nest's OpenAPI document and, where `@Field` says nothing,
 * for the tool's JSON Schema too (description, examples).
 */
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, IsUUID, Max, MaxLength, Min } from 'class-validator';
import { AmbientContext, Field, Integer } from 'toolwright';

export class CreditQueryDto {
  @ApiProperty({ description: 'Full name of the applicant', example: 'Ada Lovelace' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  applicant!: string;

  @ApiPropertyOptional({ description: 'Months of history to consider', example: 24 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(120)
  months?: number;
}

export class CreditReportDto {
  @ApiProperty({ description: 'Score between 300 and 850' }) @Field({ type: () => Integer }) score!: number;
  @ApiProperty({ enum: ['poor', 'fair', 'good', 'excellent'] }) @Field({ enum: ['poor', 'fair', 'good', 'excellent'] }) band!: string;
}

export class ApproveLoanDto {
  @ApiProperty({ description: 'The loan to approve', example: '6f1c9a52-3b0e-4c52-9a8e-1f2d3c4b5a60' }) @IsUUID() loanId!: string;

  @ApiProperty({ description: 'Approved amount in euros', example: 20000 }) @IsInt() @Min(1) @Max(1_000_000) amount!: number;

  @ApiPropertyOptional({ description: 'Processing tier', example: 'express' })
  @IsOptional()
  @IsIn(['standard', 'express'])
  tier?: 'standard' | 'express';
}

/** The tool's input: the controller's body plus the officer, who comes from the request (`request.user`), never from the model. */
export class ApproveLoanInput extends ApproveLoanDto {
  @AmbientContext() officerId!: string;
}

export class ApprovalDto {
  @ApiProperty({ description: 'Reference of the approval' }) @Field() approvalId!: string;
  @ApiProperty() @Field() approvedBy!: string;
  @ApiProperty() @Field() tier!: string;
}
