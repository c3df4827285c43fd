/**
 * The loan desk's REST controller: the same DTOs as the tools (./dto.ts), validated by Nest's
 * `ValidationPipe`, behind the same bearer-token guard.
 */
import {
  Body,
  Controller,
  Get,
  HttpCode,
  NotFoundException,
  Param,
  Post,
  Req,
  UnprocessableEntityException,
  UseGuards,
} from '@nestjs/common';
import { CreditBureau } from '../loan-desk/domain/credit-bureau';
import { LoanRepository } from '../loan-desk/domain/loan-repository';
import { AuthenticatedRequest, BearerAuthGuard } from './auth';
import { ApprovalDto, ApproveLoanDto, CreditQueryDto, CreditReportDto } from './dto';
import { approveLoan, creditReport } from './lending';
import { Roles, RolesGuard } from './roles';

@Controller()
@UseGuards(BearerAuthGuard, RolesGuard)
@Roles('loans:read')
export class LoansController {
  constructor(
    private readonly loans: LoanRepository,
    private readonly bureau: CreditBureau,
  ) {}

  @Post('credit-checks')
  @HttpCode(200)
  checkCredit(@Body() body: CreditQueryDto): CreditReportDto {
    return creditReport(this.bureau, body);
  }

  @Post('approvals')
  @Roles('loans:write')
  approve(@Body() body: ApproveLoanDto, @Req() request: AuthenticatedRequest): ApprovalDto {
    const outcome = approveLoan(this.loans, this.bureau, body, request.user!.id);
    if (outcome.ok) return outcome.approval;
    throw outcome.missing ? new NotFoundException(outcome.reason) : new UnprocessableEntityException(outcome.reason);
  }

  @Get('loans/:id')
  status(@Param('id') id: string) {
    const loan = this.loans.find(id);
    if (!loan) throw new NotFoundException('no such loan');
    return { loanId: loan.id, applicant: loan.applicant, amount: loan.amount, state: loan.state, approvedBy: loan.approvedBy ?? null };
  }
}
