#if CommandLineTool
import ArgumentParser

extension OutputFormat: ExpressibleByArgument {}
#endif
