/**
 * An empty toolbox says so (issue 39): `schemas()` is `[]`, which the OpenAI API refuses as a `tools`
 * list, so the first `schemas()` of a toolbox holding no function warns once (TOOLWRIGHT_EMPTY_TOOLBOX),
 * naming the likely cause read from the registry. The classes are declared inside the tests: the first
 * runs before any tool exists in this file's process, as when the tool modules were never imported.
 */
import 'reflect-metadata';
import { configure, Tool, type ToolwrightWarning } from 'toolwright';
import 'toolwright/mcp';
import { Toolbox } from 'toolwright/openai';
import { Tools } from 'toolwright';

const warnings: ToolwrightWarning[] = [];
beforeAll(() => configure({ onWarning: (warning) => void warnings.push(warning) }));
afterAll(() => configure({ onWarning: undefined }));
beforeEach(() => void (warnings.length = 0));

describe('an empty toolbox', () => {
  it('with no tool declared at all: lists none and warns once that the tool modules were never imported', () => {
    const toolbox = new Toolbox(Tools.forAdapter('openai'));
    expect(toolbox.schemas()).toEqual([]);
    expect(toolbox.schemas({ api: 'responses' })).toEqual([]);
    expect(warnings).toEqual([
      {
        code: 'TOOLWRIGHT_EMPTY_TOOLBOX',
        message:
          'Toolbox.schemas(): the toolbox holds no tool, so it lists none, and the OpenAI API refuses an empty `tools` list (leave `tools` out of the request instead). ' +
          'No tool is declared in this process: the modules of the tool classes were never imported (an import used only as a type is removed by the compiler), ' +
          "so their @Tool decorators never ran. Import them (import './tools/check-credit') before building the toolbox.",
      },
    ]);
  });

  it("with tools declared for other adapters only: names them and the key to add", () => {
    @Tool('mcp', { description: 'Checks credit' })
    class CheckCredit {
      call() {
        return 'ok';
      }
    }
    void CheckCredit;
    new Toolbox(Tools.forAdapter('openai')).schemas();
    expect(warnings.map((warning) => warning.message.split('refuses an empty `tools` list (leave `tools` out of the request instead). ')[1])).toEqual([
      "Tools are declared for 'mcp' (1) but none for 'openai': add 'openai' to their keys (@Tool('mcp', 'openai', …)) or give the classes to the toolbox by name.",
    ]);
    // Given by name, a class of another adapter is a function of the toolbox: no warning.
    expect(new Toolbox([CheckCredit]).schemas().map((schema) => schema.function.name)).toEqual(['check_credit']);
    expect(warnings).toHaveLength(1);
  });
});
