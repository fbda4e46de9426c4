// Validates an OpenAPI document file against the specification (exit code 1 and the reason if not).
// A separate process because the validator is an ES module, which the test runner cannot load.
const SwaggerParser = require('@apidevtools/swagger-parser');

SwaggerParser.validate(process.argv[2]).then(
  (api) => console.log(`valid OpenAPI ${api.openapi}`),
  (error) => {
    console.error(error.message);
    process.exit(1);
  },
);
