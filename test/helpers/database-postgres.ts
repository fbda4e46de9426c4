// This project's tests run on PostgreSQL: each test server makes its own database there
// (jest.config.js only makes this project when TEST_DATABASE_URL is set).
if (!process.env.TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
