import { graphql } from '../graphql';

/** The organization's data exports and the members' consent to them (administration). */

export const RealmExportsQuery = graphql(`
  query RealmExports {
    realmExports { id actingUserId exportTime exportType exportUrl pending failedTimestamp deletedTimestamp }
  }
`);

export const ExportConsentsQuery = graphql(`
  query ExportConsents {
    exportConsents { userId consented }
  }
`);

export const StartExportMutation = graphql(`
  mutation StartExport($exportType: String!) {
    startExport(exportType: $exportType) { id }
  }
`);

export const DeleteExportMutation = graphql(`
  mutation DeleteExport($id: Int!) {
    deleteExport(id: $id) { id }
  }
`);
