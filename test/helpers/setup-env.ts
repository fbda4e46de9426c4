import 'reflect-metadata';

// Tests write no logs unless a test asks for them (and then captures them).
process.env.LOG_LEVEL = 'silent';
