import { EntryRedirect } from "@/components/auth/entry-redirect";
import { Providers } from "@/components/providers";

const Home = () => (
  <Providers>
    <EntryRedirect />
  </Providers>
);

export default Home;
