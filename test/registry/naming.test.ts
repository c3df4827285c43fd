import { Tool, ToolRegistry, ToolVersion } from 'toolwright';
import { isolatedRegistry } from 'toolwright/testing';

describe('tool names', () => {
  let registry: ToolRegistry;
  beforeEach(() => {
    registry = isolatedRegistry();
  });

  const derived: Array<[string, () => Function, string]> = [
    ['ListCompanies', () => { @Tool() class ListCompanies { call() {} } return ListCompanies; }, 'list_companies'],
    ['HTTPRequestParser', () => { @Tool() class HTTPRequestParser { call() {} } return HTTPRequestParser; }, 'http_request_parser'],
    ['ListCompaniesTool (suffix stripped)', () => { @Tool() class ListCompaniesTool { call() {} } return ListCompaniesTool; }, 'list_companies'],
    ['SearchAction (suffix stripped)', () => { @Tool() class SearchAction { call() {} } return SearchAction; }, 'search'],
    ['a class named Tool', () => { @Tool() class Tool_ { call() {} } Object.defineProperty(Tool_, 'name', { value: 'Tool' }); return Tool_; }, 'tool'],
    ['letters outside a-z are dropped', () => { @Tool() class Ünï { call() {} } return Ünï; }, 'n'],
    ['Base64Encoder', () => { @Tool() class Base64Encoder { call() {} } return Base64Encoder; }, 'base64_encoder'],
    ['explicit ListCompanies is only sanitized', () => { @Tool({ name: 'ListCompanies' }) class X { call() {} } return X; }, 'listcompanies'],
    ['explicit "Approve loan!!" is sanitized', () => { @Tool({ name: 'Approve loan!!' }) class X { call() {} } return X; }, 'approve_loan'],
    ['ApproveLoanV2 declaring @ToolVersion(2) drops the segment', () => { @Tool() @ToolVersion(2) class ApproveLoanV2 { call() {} } return ApproveLoanV2; }, 'approve_loan'],
    ['ApproveLoanV2 without a version keeps it', () => { @Tool() class ApproveLoanV2 { call() {} } return ApproveLoanV2; }, 'approve_loan_v2'],
    ['an explicit name beats the version rule', () => { @Tool({ name: 'loan_v2' }) @ToolVersion(2) class ApproveLoanV2 { call() {} } return ApproveLoanV2; }, 'loan_v2'],
  ];

  it.each(derived)('%s', (_label, declare, expected) => {
    expect(registry.describe(declare()).toolName()).toBe(expected);
  });

  it('a class whose name has no usable character is never blank', () => {
    @Tool() class Blank { call() {} }
    Object.defineProperty(Blank, 'name', { value: '__' });
    expect(registry.describe(Blank).toolName()).toBe('tool');
  });

  it('method tools derive from the method name, with the version rule', () => {
    class LoanService {
      @Tool() loanStatus() {}
      @Tool() @ToolVersion(2) approveV2() {}
      @Tool() approveV3() {}
    }
    expect(registry.describe(LoanService, 'loanStatus').toolName()).toBe('loan_status');
    expect(registry.describe(LoanService, 'approveV2').toolName()).toBe('approve');
    expect(registry.describe(LoanService, 'approveV3').toolName()).toBe('approve_v3');
  });

  it('a per-adapter name applies only to that adapter', () => {
    @Tool({ adapters: { mcp: { name: 'x' } } }) class ApproveLoan { call() {} }
    const definition = registry.describe(ApproveLoan);
    expect(definition.toolName('mcp')).toBe('x');
    expect(definition.toolName()).toBe('approve_loan');
    expect(definition.toolName('openai')).toBe('approve_loan');
  });

  it('suffixes are a registry setting', () => {
    const custom = isolatedRegistry({ nameSuffixes: ['Handler'] });
    @Tool() class RefundHandler { call() {} }
    @Tool() class RefundTool { call() {} }
    expect(custom.describe(RefundHandler).toolName()).toBe('refund');
    expect(custom.describe(RefundTool).toolName()).toBe('refund_tool');
  });
});
