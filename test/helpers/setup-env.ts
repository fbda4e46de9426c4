import 'reflect-metadata';

// Tests never print the operator banner or request logs.
process.env.PARLEY_LOG_REQUESTS = '0';
