"use client";
import { useAuthSettings } from "../api/use-db-auth";
import { useDatabase, useDatabaseAccess } from "../api/use-databases";
import { ErrorState, LoadingState } from "../ui/states";
import { AuthSettingsForm } from "./auth-settings-form";
import { AuthTestMail } from "./auth-test-mail";
import { AuthUsers } from "./auth-users";
import { PolicyEditor } from "./policy-editor";
import { TestAsUser } from "./test-as-user";

/** The Auth tab: database auth settings, a test mail with its templates (admins), the users admin (admins, auth on), row policies per table, and "test as user". */
export const AuthPage = ({ instance }: { instance: string }) => {
  const database = useDatabase(instance);
  const auth = useAuthSettings(instance);
  // Viewers and editors read these settings; changing them (and impersonating a user) is the admins'.
  const { admin } = useDatabaseAccess(instance);
  if (database.isLoading || auth.isLoading) return <LoadingState label="Loading auth settings…" />;
  if (database.error || auth.error) return <ErrorState error={database.error ?? auth.error} onRetry={() => void auth.refetch()} />;
  const tables = database.data!.tables;
  return (
    <div className="space-y-6">
      <AuthSettingsForm instance={instance} tables={tables} current={auth.data!} canAdmin={admin} />
      {admin && <AuthTestMail instance={instance} />}
      {admin && auth.data!.enabled && <AuthUsers instance={instance} />}
      <PolicyEditor instance={instance} tables={tables} usersTable={auth.data!.users_table} canAdmin={admin} />
      <TestAsUser instance={instance} tables={tables} auth={auth.data!} canAdmin={admin} />
    </div>
  );
};
