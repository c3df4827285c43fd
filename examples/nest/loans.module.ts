/** The loan desk's feature module: the loan book, the credit bureau, the REST controller and the tools. */
import { Module } from '@nestjs/common';
import { CreditBureau } from '../loan-desk/domain/credit-bureau';
import { LoanRepository } from '../loan-desk/domain/loan-repository';
import { BearerAuthGuard } from './auth';
import { CallLog, CallLogInterceptor } from './call-log';
import { LoansController } from './loans.controller';
import { RolesGuard } from './roles';
import { ApproveLoanTool, CheckCreditTool } from './tools';

@Module({
  controllers: [LoansController],
  providers: [LoanRepository, CreditBureau, BearerAuthGuard, RolesGuard, CallLog, CallLogInterceptor, CheckCreditTool, ApproveLoanTool],
  exports: [LoanRepository, CreditBureau, BearerAuthGuard, CallLog],
})
export class LoansModule {}
