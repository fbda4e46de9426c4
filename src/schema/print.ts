import fs from 'node:fs';
import path from 'node:path';
import { schemaSdl } from './index';

// Writes schema.graphql at the project root (npm run schema:print).
const target = path.resolve(__dirname, '../../../schema.graphql');
fs.writeFileSync(target, schemaSdl());
console.log(`wrote ${target}`);
