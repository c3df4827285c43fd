/**
 * The loan desk's tools as Nest providers: `@Injectable()` classes in a module, their dependencies
 * injected by Nest, their inputs the controller's DTOs (./dto.ts), behind the same `RolesGuard` as
 * the controller and recorded by `CallLogInterceptor`.
 */
import { Injectable, UseGuards, UseInterceptors } from '@nestjs/common';
import { Description, Expects, Exposes, fail, SemanticHints, Tool } from 'toolwright';
import { CreditBureau } from '../loan-desk/domain/credit-bureau';
import { LoanRepository } from '../loan-desk/domain/loan-repository';
import { ApprovalDto, ApproveLoanInput, CreditQueryDto, CreditReportDto } from './dto';
import { CallLogInterceptor } from './call-log';
import { approveLoan, creditReport } from './lending';
import { Roles, RolesGuard } from './roles';

@Tool('mcp', 'http', { name: 'check_credit' })
@Description('Credit score of an applicant')
@SemanticHints('readOnly', 'idempotent')
@Expects(CreditQueryDto)
@Exposes(CreditReportDto)
@Roles('loans:read')
@UseGuards(RolesGuard)
@UseInterceptors(CallLogInterceptor)
@Injectable()
export class CheckCreditTool {
  constructor(private readonly bureau: CreditBureau) {}

  call(input: CreditQueryDto): CreditReportDto {
    return creditReport(this.bureau, input);
  }
}

@Tool('mcp', 'http', { name: 'approve_loan', error: 'Could not approve the loan' })
@Description('Approve a pending loan as the signed-in officer')
@Expects(ApproveLoanInput)
@Exposes(ApprovalDto)
@Roles('loans:write')
@UseGuards(RolesGuard)
@UseInterceptors(CallLogInterceptor)
@Injectable()
export class ApproveLoanTool {
  constructor(
    private readonly loans: LoanRepository,
    private readonly bureau: CreditBureau,
  ) {}

  call(input: ApproveLoanInput): ApprovalDto {
    const outcome = approveLoan(this.loans, this.bureau, input, input.officerId);
    if (!outcome.ok) fail(outcome.reason);
    return outcome.approval;
  }
}
