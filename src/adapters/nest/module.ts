import { Module, type DynamicModule } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ToolwrightHost } from './host';
import { TOOLWRIGHT_MODULE_OPTIONS, type ToolwrightModuleAsyncOptions, type ToolwrightModuleOptions } from './options';

/**
 * toolwright inside a Nest application: the providers that are toolwright members (classes with
 * `@Tool`, `@Resource`, `@Prompt`, ... or methods with them) are found in the application's modules,
 * resolved through Nest's container, and served over MCP (and the HTTP API) on the application's
 * own server.
 */
@Module({})
export class ToolwrightModule {
  static forRoot(options: ToolwrightModuleOptions = {}): DynamicModule {
    return {
      module: ToolwrightModule,
      imports: [DiscoveryModule],
      providers: [{ provide: TOOLWRIGHT_MODULE_OPTIONS, useValue: options }, ToolwrightHost],
      exports: [ToolwrightHost],
    };
  }

  static forRootAsync(options: ToolwrightModuleAsyncOptions): DynamicModule {
    return {
      module: ToolwrightModule,
      imports: [DiscoveryModule, ...(options.imports ?? [])],
      providers: [{ provide: TOOLWRIGHT_MODULE_OPTIONS, useFactory: options.useFactory, inject: options.inject ?? [] }, ToolwrightHost],
      exports: [ToolwrightHost],
    };
  }
}
