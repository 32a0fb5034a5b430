import { SetupForm } from "@/components/auth/setup-form";

export const metadata = { title: "Create your account · Tabula" };

export default SetupForm;
