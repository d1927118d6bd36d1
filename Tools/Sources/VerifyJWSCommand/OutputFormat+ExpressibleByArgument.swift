import ArgumentParser

extension OutputFormat: ExpressibleByArgument {}
