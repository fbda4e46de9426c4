// This project's tests run on in-memory PGlite, whatever the environment says.
delete process.env.TEST_DATABASE_URL;
