import { Knex } from 'knex';
import { migrations } from '../../migrations';

/**
 * Migrations are listed in code (migrations/index.ts) rather than discovered on disk, so the same
 * list runs from the compiled build, from the test runner, and in any working directory.
 */
class ListedMigrations implements Knex.MigrationSource<string> {
  async getMigrations() {
    return migrations.map((m) => m.name);
  }
  getMigrationName(name: string) {
    return name;
  }
  async getMigration(name: string) {
    const found = migrations.find((m) => m.name === name);
    if (!found) throw new Error(`unknown migration ${name}`);
    return found.module;
  }
}

const migrationConfig = (): Knex.MigratorConfig => ({
  migrationSource: new ListedMigrations(),
  tableName: 'knex_migrations',
});

export async function migrateLatest(knex: Knex): Promise<string[]> {
  const [, applied] = await knex.migrate.latest(migrationConfig());
  return applied as string[];
}

export async function migrateRollback(knex: Knex, all = false): Promise<string[]> {
  const [, rolledBack] = await knex.migrate.rollback(migrationConfig(), all);
  return rolledBack as string[];
}
