// A test entry for the audit pool: a worker that fails while it loads (a missing module, a broken install).
throw new Error('this audit worker cannot load');
