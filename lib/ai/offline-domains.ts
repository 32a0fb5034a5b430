// Typical tables of common apps, data only. The offline planner never plans one of these as such: it adds
// their typical columns (and references between two tables the sentence named) to the entities a sentence
// names, and takes their sample values for those columns. Seed references are 1-based seed row positions.
import type { PlanColumn, PlanTable } from "./plan";

export type Domain = {
  tables: PlanTable[];
  seed: Record<string, Record<string, unknown>[]>;
};

type Extra = Omit<PlanColumn, "name" | "type">;
const required = { nullable: false };
const varchar = (name: string, length: number, extra: Extra = {}): PlanColumn => ({ name, type: "varchar", length, ...extra });
const text = (name: string): PlanColumn => ({ name, type: "text" });
const int = (name: string, extra: Extra = {}): PlanColumn => ({ name, type: "int", ...extra });
const money = (name: string, extra: Extra = {}, precision = 10): PlanColumn => ({ name, type: "decimal", precision, scale: 2, ...extra });
const bool = (name: string, fallback: boolean): PlanColumn => ({ name, type: "boolean", nullable: false, default: fallback });
const date = (name: string, extra: Extra = {}): PlanColumn => ({ name, type: "date", ...extra });
const datetime = (name: string, extra: Extra = {}): PlanColumn => ({ name, type: "datetime", ...extra });
const dropdown = (name: string, options: string[], fallback = options[0]): PlanColumn => ({ name, type: "dropdown", options, nullable: false, default: fallback });
const ref = (name: string, table: string, nullable = false): PlanColumn => ({ name, type: "reference", references: table, nullable });
const email = (name = "email", unique = true): PlanColumn => varchar(name, 255, { unique, nullable: !unique });
const nameColumn = (name = "name", length = 120) => varchar(name, length, required);

/** Seed rows written as a header and value tuples, to keep the templates readable. */
const rows = (header: string[], values: unknown[][]) => values.map((v) => Object.fromEntries(header.map((h, i) => [h, v[i]])));

const shop: Domain = {
  tables: [
    { name: "customers", columns: [nameColumn(), email(), varchar("phone", 40), varchar("city", 80)] },
    {
      name: "products",
      columns: [nameColumn("name", 150), text("description"), money("price", required), int("stock", { nullable: false, default: 0 }), dropdown("category", ["General", "Featured", "Seasonal", "Gift sets"]), bool("active", true)],
    },
    { name: "orders", columns: [ref("customer_id", "customers"), date("order_date", required), dropdown("status", ["pending", "paid", "shipped", "delivered", "cancelled"]), money("total", required)] },
    { name: "order_items", columns: [ref("order_id", "orders"), ref("product_id", "products"), int("quantity", { nullable: false, default: 1 }), money("unit_price", required)] },
  ],
  seed: {
    customers: rows(["name", "email", "phone", "city"], [["Ada Lovelace", "ada@example.com", "+44 20 7946 0011", "London"], ["Grace Hopper", "grace@example.com", null, "New York"], ["Alan Turing", "alan@example.com", "+44 161 496 0123", "Manchester"]]),
    products: rows(["name", "description", "price", "stock", "category", "active"], [
      ["Starter set", "Everything to get going.", 24.5, 40, "Featured", true], ["Classic item", "Our best seller.", 9.99, 120, "General", true], ["Holiday box", "Limited winter edition.", 34, 15, "Seasonal", true], ["Gift card", "A voucher worth 25.", 25, 999, "Gift sets", false],
    ]),
    orders: rows(["customer_id", "order_date", "status", "total"], [[1, "2025-03-02", "delivered", 44.48], [2, "2025-03-05", "shipped", 34], [1, "2025-03-09", "pending", 25]]),
    order_items: rows(["order_id", "product_id", "quantity", "unit_price"], [[1, 1, 1, 24.5], [1, 2, 2, 9.99], [2, 3, 1, 34], [3, 4, 1, 25]]),
  },
};

const blog: Domain = {
  tables: [
    { name: "authors", columns: [nameColumn(), email(), text("bio")] },
    {
      name: "posts",
      columns: [ref("author_id", "authors"), varchar("title", 200, required), varchar("slug", 200, { nullable: false, unique: true }), text("body"), dropdown("status", ["draft", "published", "archived"]), datetime("published_at"), bool("featured", false)],
    },
    { name: "comments", columns: [ref("post_id", "posts"), varchar("author_name", 100, required), text("body"), bool("approved", false)] },
  ],
  seed: {
    authors: rows(["name", "email", "bio"], [["Maya Chen", "maya@example.com", "Writes about travel and food."], ["Tom Berg", "tom@example.com", "Engineer, occasional essayist."], ["Lena Ortiz", "lena@example.com", null]]),
    posts: rows(["author_id", "title", "slug", "body", "status", "published_at", "featured"], [
      [1, "Ten days in Lisbon", "ten-days-in-lisbon", "Trams, tiles and pastéis de nata.", "published", "2025-02-10T08:00:00Z", true], [2, "Why we moved to SQLite", "why-we-moved-to-sqlite", "One file, zero servers.", "published", "2025-02-18T09:30:00Z", false], [3, "Notes on slow mornings", "notes-on-slow-mornings", "Draft notes.", "draft", null, false],
    ]),
    comments: rows(["post_id", "author_name", "body", "approved"], [[1, "Rui", "You missed Alfama!", true], [1, "Jo", "Saving this for my trip.", true], [2, "Sam", "What about concurrent writes?", false]]),
  },
};

const crm: Domain = {
  tables: [
    { name: "companies", columns: [nameColumn("name", 150), dropdown("industry", ["Software", "Retail", "Manufacturing", "Finance", "Healthcare", "Other"], "Other"), varchar("website", 255), varchar("city", 80)] },
    { name: "contacts", columns: [ref("company_id", "companies"), varchar("first_name", 80, required), varchar("last_name", 80, required), email(), varchar("phone", 40), varchar("job_title", 100)] },
    { name: "deals", columns: [ref("contact_id", "contacts"), varchar("title", 150, required), money("value", required, 12), dropdown("stage", ["lead", "qualified", "proposal", "won", "lost"]), date("expected_close")] },
  ],
  seed: {
    companies: rows(["name", "industry", "website", "city"], [["Northwind Traders", "Retail", "https://northwind.example", "Seattle"], ["Globex", "Manufacturing", "https://globex.example", "Springfield"], ["Initech", "Software", null, "Austin"]]),
    contacts: rows(["company_id", "first_name", "last_name", "email", "phone", "job_title"], [[1, "Nancy", "Davolio", "nancy@northwind.example", "+1 206 555 0100", "Buyer"], [2, "Hank", "Scorpio", "hank@globex.example", null, "CEO"], [3, "Bill", "Lumbergh", "bill@initech.example", "+1 512 555 0199", "VP Operations"]]),
    deals: rows(["contact_id", "title", "value", "stage", "expected_close"], [[1, "Spring restock", 12500, "proposal", "2025-04-30"], [2, "Plant automation", 240000, "qualified", "2025-09-01"], [3, "TPS report licences", 8000, "won", "2025-02-15"], [1, "Loyalty programme", 4000, "lead", null]]),
  },
};

const tasks: Domain = {
  tables: [
    { name: "team_members", columns: [nameColumn(), email(), dropdown("role", ["member", "lead", "manager"])] },
    { name: "projects", columns: [nameColumn("name", 150), text("description"), dropdown("status", ["active", "on hold", "done"]), date("start_date"), date("due_date")] },
    {
      name: "tasks",
      columns: [ref("project_id", "projects"), ref("assignee_id", "team_members", true), varchar("title", 200, required), dropdown("priority", ["low", "medium", "high", "urgent"], "medium"), dropdown("status", ["todo", "in progress", "review", "done"]), date("due_date"), { name: "estimate_hours", type: "decimal", precision: 5, scale: 1 }],
    },
  ],
  seed: {
    team_members: rows(["name", "email", "role"], [["Priya Nair", "priya@example.com", "lead"], ["Jonas Weber", "jonas@example.com", "member"], ["Chloé Martin", "chloe@example.com", "manager"]]),
    projects: rows(["name", "description", "status", "start_date", "due_date"], [["Website relaunch", "New design and content.", "active", "2025-03-01", "2025-05-30"], ["Mobile app", "iOS and Android MVP.", "on hold", "2025-04-01", null], ["Q1 reporting", null, "done", "2025-01-02", "2025-03-31"]]),
    tasks: rows(["project_id", "assignee_id", "title", "priority", "status", "due_date", "estimate_hours"], [
      [1, 1, "Write homepage copy", "high", "in progress", "2025-03-20", 6], [1, 2, "Set up staging server", "medium", "todo", "2025-03-25", 3.5], [2, null, "Pick a push notification service", "low", "todo", null, 2], [3, 3, "Send board report", "urgent", "done", "2025-03-31", 4],
    ]),
  },
};

const bookings: Domain = {
  tables: [
    { name: "services", columns: [nameColumn("name", 120), int("duration_minutes", { nullable: false, default: 30 }), money("price", required), bool("active", true)] },
    { name: "staff", columns: [nameColumn(), email(), varchar("specialty", 100)] },
    { name: "clients", columns: [nameColumn(), email("email", false), varchar("phone", 40)] },
    {
      name: "appointments",
      columns: [ref("client_id", "clients"), ref("service_id", "services"), ref("staff_id", "staff"), datetime("starts_at", required), dropdown("status", ["booked", "confirmed", "completed", "cancelled", "no-show"]), text("notes")],
    },
  ],
  seed: {
    services: rows(["name", "duration_minutes", "price", "active"], [["Consultation", 30, 40, true], ["Standard session", 60, 75, true], ["Extended session", 90, 105, true]]),
    staff: rows(["name", "email", "specialty"], [["Sara Lind", "sara@example.com", "Senior specialist"], ["Omar Haddad", "omar@example.com", "Generalist"], ["Kim Park", "kim@example.com", null]]),
    clients: rows(["name", "email", "phone"], [["Lucy Grey", "lucy@example.com", "+1 555 0101"], ["Marco Rossi", null, "+39 02 555 0199"], ["Aiko Tanaka", "aiko@example.com", null]]),
    appointments: rows(["client_id", "service_id", "staff_id", "starts_at", "status", "notes"], [[1, 2, 1, "2025-04-02T09:00:00Z", "confirmed", null], [2, 1, 2, "2025-04-02T10:30:00Z", "booked", "First visit."], [3, 3, 1, "2025-04-03T14:00:00Z", "completed", null], [1, 1, 3, "2025-04-10T16:00:00Z", "cancelled", "Rescheduling."]]),
  },
};

const inventory: Domain = {
  tables: [
    { name: "warehouses", columns: [nameColumn("name", 100), varchar("city", 80), int("capacity")] },
    { name: "suppliers", columns: [nameColumn("name", 150), email("contact_email", false), varchar("phone", 40)] },
    {
      name: "items",
      columns: [varchar("sku", 40, { nullable: false, unique: true }), nameColumn("name", 150), ref("supplier_id", "suppliers"), dropdown("unit", ["piece", "box", "kg", "litre"]), money("unit_cost", required), int("reorder_level", { nullable: false, default: 10 })],
    },
    { name: "stock_levels", columns: [ref("item_id", "items"), ref("warehouse_id", "warehouses"), int("quantity", { nullable: false, default: 0 }), date("last_counted")] },
  ],
  seed: {
    warehouses: rows(["name", "city", "capacity"], [["Main depot", "Rotterdam", 12000], ["East hub", "Leipzig", 5000], ["Returns centre", "Antwerp", 1500]]),
    suppliers: rows(["name", "contact_email", "phone"], [["Acme Packaging", "sales@acme.example", "+31 10 555 0100"], ["Nordic Metals", "orders@nordic.example", null], ["FreshPack", null, "+32 3 555 0142"]]),
    items: rows(["sku", "name", "supplier_id", "unit", "unit_cost", "reorder_level"], [["BOX-S", "Small shipping box", 1, "box", 0.45, 500], ["BOLT-M8", "M8 steel bolt", 2, "piece", 0.08, 2000], ["TAPE-48", "Packing tape 48 mm", 1, "piece", 1.2, 100], ["GEL-1L", "Cooling gel", 3, "litre", 3.75, 40]]),
    stock_levels: rows(["item_id", "warehouse_id", "quantity", "last_counted"], [[1, 1, 3400, "2025-03-01"], [2, 1, 15000, "2025-03-01"], [3, 2, 80, "2025-02-20"], [4, 3, 12, null]]),
  },
};

const school: Domain = {
  tables: [
    { name: "teachers", columns: [nameColumn(), email(), varchar("subject", 80)] },
    { name: "students", columns: [varchar("first_name", 80, required), varchar("last_name", 80, required), email(), date("birth_date")] },
    { name: "courses", columns: [ref("teacher_id", "teachers"), varchar("code", 20, { nullable: false, unique: true }), varchar("title", 150, required), int("credits", { nullable: false, default: 5 }), dropdown("term", ["autumn", "spring", "summer"])] },
    { name: "enrollments", columns: [ref("student_id", "students"), ref("course_id", "courses"), date("enrolled_on", required), { name: "grade", type: "dropdown", options: ["A", "B", "C", "D", "E", "F"] }] },
  ],
  seed: {
    teachers: rows(["name", "email", "subject"], [["Dr. Amara Obi", "amara@school.example", "Mathematics"], ["Mr. Pablo Ruiz", "pablo@school.example", "History"], ["Ms. Ingrid Holm", "ingrid@school.example", "Biology"]]),
    students: rows(["first_name", "last_name", "email", "birth_date"], [["Leo", "Fischer", "leo@students.example", "2008-05-14"], ["Zara", "Ahmed", "zara@students.example", "2007-11-02"], ["Noah", "Kim", "noah@students.example", "2008-01-23"], ["Eva", "Novak", "eva@students.example", null]]),
    courses: rows(["teacher_id", "code", "title", "credits", "term"], [[1, "MATH101", "Algebra I", 5, "autumn"], [2, "HIST210", "Modern Europe", 4, "spring"], [3, "BIO150", "Cell biology", 5, "autumn"]]),
    enrollments: rows(["student_id", "course_id", "enrolled_on", "grade"], [[1, 1, "2024-09-02", "A"], [2, 1, "2024-09-02", "B"], [3, 3, "2024-09-03", null], [4, 2, "2025-01-15", "C"], [2, 3, "2024-09-03", "A"]]),
  },
};

const events: Domain = {
  tables: [
    { name: "venues", columns: [nameColumn("name", 150), varchar("address", 255), varchar("city", 80), int("capacity")] },
    {
      name: "events",
      columns: [ref("venue_id", "venues"), varchar("title", 200, required), text("description"), datetime("starts_at", required), dropdown("category", ["concert", "conference", "workshop", "festival", "meetup"]), money("base_price", required)],
    },
    { name: "attendees", columns: [nameColumn(), email()] },
    { name: "tickets", columns: [ref("event_id", "events"), ref("attendee_id", "attendees"), dropdown("ticket_type", ["standard", "vip", "student"]), money("price_paid", required), bool("checked_in", false)] },
  ],
  seed: {
    venues: rows(["name", "address", "city", "capacity"], [["Paradiso", "Weteringschans 6", "Amsterdam", 1500], ["Kulturbrauerei", "Schönhauser Allee 36", "Berlin", 900], ["The Loft", null, "Dublin", 120]]),
    events: rows(["venue_id", "title", "description", "starts_at", "category", "base_price"], [[1, "Spring Sounds", "Three bands, one night.", "2025-05-16T19:30:00Z", "concert", 35], [2, "DevDays 2025", "Two days of talks on web backends.", "2025-06-10T08:00:00Z", "conference", 249], [3, "Pottery for beginners", null, "2025-04-12T13:00:00Z", "workshop", 45]]),
    attendees: rows(["name", "email"], [["Femke de Vries", "femke@example.com"], ["Liam O'Brien", "liam@example.com"], ["Sofia Conti", "sofia@example.com"], ["Yusuf Demir", "yusuf@example.com"]]),
    tickets: rows(["event_id", "attendee_id", "ticket_type", "price_paid", "checked_in"], [[1, 1, "standard", 35, true], [1, 2, "vip", 70, false], [2, 3, "student", 99, false], [3, 4, "standard", 45, false], [2, 1, "standard", 249, false]]),
  },
};

const recipes: Domain = {
  tables: [
    {
      name: "recipes",
      columns: [varchar("title", 150, required), text("instructions"), dropdown("cuisine", ["Italian", "Mexican", "Indian", "Japanese", "French", "Other"], "Other"), dropdown("difficulty", ["easy", "medium", "hard"]), int("prep_minutes"), int("servings", { nullable: false, default: 2 }), bool("vegetarian", false)],
    },
    { name: "ingredients", columns: [varchar("name", 100, { nullable: false, unique: true }), int("calories_per_100g")] },
    { name: "recipe_ingredients", columns: [ref("recipe_id", "recipes"), ref("ingredient_id", "ingredients"), { name: "quantity", type: "decimal", precision: 8, scale: 2, nullable: false }, dropdown("unit", ["g", "ml", "piece", "tbsp", "tsp", "cup"])] },
  ],
  seed: {
    recipes: rows(["title", "instructions", "cuisine", "difficulty", "prep_minutes", "servings", "vegetarian"], [["Spaghetti aglio e olio", "Fry garlic in oil, toss with pasta and chilli.", "Italian", "easy", 20, 2, true], ["Chicken tikka masala", "Marinate, grill, simmer in sauce.", "Indian", "medium", 60, 4, false], ["Guacamole", "Mash avocados with lime, onion and salt.", "Mexican", "easy", 10, 4, true]]),
    ingredients: rows(["name", "calories_per_100g"], [["spaghetti", 371], ["garlic", 149], ["olive oil", 884], ["chicken breast", 165], ["avocado", 160]]),
    recipe_ingredients: rows(["recipe_id", "ingredient_id", "quantity", "unit"], [[1, 1, 200, "g"], [1, 2, 4, "piece"], [1, 3, 3, "tbsp"], [2, 4, 600, "g"], [3, 5, 3, "piece"]]),
  },
};

const helpdesk: Domain = {
  tables: [
    { name: "customers", columns: [nameColumn(), email(), varchar("company", 150), dropdown("plan", ["free", "pro", "enterprise"])] },
    { name: "agents", columns: [nameColumn(), email(), dropdown("team", ["support", "billing", "engineering"])] },
    {
      name: "tickets",
      columns: [ref("customer_id", "customers"), ref("agent_id", "agents", true), varchar("subject", 200, required), text("description"), dropdown("priority", ["low", "normal", "high", "urgent"], "normal"), dropdown("status", ["open", "pending", "resolved", "closed"]), datetime("opened_at", required)],
    },
    { name: "ticket_replies", columns: [ref("ticket_id", "tickets"), bool("from_agent", false), text("body")] },
  ],
  seed: {
    customers: rows(["name", "email", "company", "plan"], [["Hannah Schmidt", "hannah@acme.example", "Acme GmbH", "enterprise"], ["Diego Alvarez", "diego@example.com", null, "free"], ["Mei Wong", "mei@brightly.example", "Brightly", "pro"]]),
    agents: rows(["name", "email", "team"], [["Oscar Lind", "oscar@helpdesk.example", "support"], ["Nadia Rahman", "nadia@helpdesk.example", "billing"], ["Ben Carter", "ben@helpdesk.example", "engineering"]]),
    tickets: rows(["customer_id", "agent_id", "subject", "description", "priority", "status", "opened_at"], [[1, 3, "Export times out", "CSV export of 2M rows fails after 30 s.", "high", "open", "2025-03-03T10:15:00Z"], [2, null, "Cannot reset password", null, "normal", "open", "2025-03-04T08:02:00Z"], [3, 2, "Charged twice in March", "Two identical invoices.", "urgent", "pending", "2025-03-05T16:40:00Z"], [1, 1, "How do I add a user?", null, "low", "resolved", "2025-02-27T09:00:00Z"]]),
    ticket_replies: rows(["ticket_id", "from_agent", "body"], [[1, true, "We can reproduce it and are working on a fix."], [3, true, "Refund issued; it shows in 3–5 days."], [3, false, "Thanks, much appreciated!"], [4, true, "Settings → Team → Invite."]]),
  },
};

const library: Domain = {
  tables: [
    { name: "authors", columns: [nameColumn(), int("birth_year"), varchar("country", 80)] },
    {
      name: "books",
      columns: [ref("author_id", "authors"), varchar("title", 200, required), varchar("isbn", 17, { unique: true }), dropdown("genre", ["fiction", "non-fiction", "science", "history", "children", "poetry"]), int("published_year"), int("copies", { nullable: false, default: 1 })],
    },
    { name: "members", columns: [nameColumn(), email(), date("joined_on", required)] },
    { name: "loans", columns: [ref("book_id", "books"), ref("member_id", "members"), date("loaned_on", required), date("due_on", required), bool("returned", false)] },
  ],
  seed: {
    authors: rows(["name", "birth_year", "country"], [["Chimamanda Ngozi Adichie", 1977, "Nigeria"], ["Ursula K. Le Guin", 1929, "United States"], ["Yuval Noah Harari", 1976, "Israel"]]),
    books: rows(["author_id", "title", "isbn", "genre", "published_year", "copies"], [[1, "Half of a Yellow Sun", "978-0007200283", "fiction", 2006, 2], [2, "A Wizard of Earthsea", "978-0547773742", "fiction", 1968, 3], [3, "Sapiens", "978-0062316097", "history", 2011, 1], [2, "The Dispossessed", null, "fiction", 1974, 1]]),
    members: rows(["name", "email", "joined_on"], [["Irene Adler", "irene@example.com", "2024-01-15"], ["Kofi Mensah", "kofi@example.com", "2024-06-03"], ["Elif Şahin", "elif@example.com", "2025-02-20"]]),
    loans: rows(["book_id", "member_id", "loaned_on", "due_on", "returned"], [[1, 1, "2025-03-01", "2025-03-22", true], [3, 2, "2025-03-10", "2025-03-31", false], [2, 3, "2025-03-12", "2025-04-02", false]]),
  },
};

const fitness: Domain = {
  tables: [
    { name: "members", columns: [nameColumn(), email(), dropdown("membership", ["basic", "premium", "student"]), date("joined_on", required), bool("active", true)] },
    { name: "trainers", columns: [nameColumn(), email(), dropdown("specialty", ["strength", "cardio", "yoga", "pilates", "boxing"])] },
    { name: "classes", columns: [ref("trainer_id", "trainers"), nameColumn("name", 100), datetime("starts_at", required), int("duration_minutes", { nullable: false, default: 60 }), int("capacity", { nullable: false, default: 12 })] },
    { name: "class_bookings", columns: [ref("class_id", "classes"), ref("member_id", "members"), bool("attended", false)] },
  ],
  seed: {
    members: rows(["name", "email", "membership", "joined_on", "active"], [["Julia Costa", "julia@example.com", "premium", "2024-09-01", true], ["Erik Olsen", "erik@example.com", "basic", "2025-01-10", true], ["Aisha Bello", "aisha@example.com", "student", "2025-02-03", false]]),
    trainers: rows(["name", "email", "specialty"], [["Marta Kowalska", "marta@gym.example", "yoga"], ["Dan Miller", "dan@gym.example", "strength"], ["Rosa Diaz", "rosa@gym.example", "boxing"]]),
    classes: rows(["trainer_id", "name", "starts_at", "duration_minutes", "capacity"], [[1, "Morning flow", "2025-04-07T07:00:00Z", 60, 15], [2, "Power lifting basics", "2025-04-07T18:00:00Z", 75, 8], [3, "Boxing circuit", "2025-04-08T19:00:00Z", 45, 12]]),
    class_bookings: rows(["class_id", "member_id", "attended"], [[1, 1, true], [1, 3, false], [2, 2, true], [3, 1, false]]),
  },
};

const realEstate: Domain = {
  tables: [
    { name: "agents", columns: [nameColumn(), email(), varchar("phone", 40)] },
    {
      name: "properties",
      columns: [ref("agent_id", "agents"), varchar("title", 200, required), varchar("address", 255, required), varchar("city", 80, required), dropdown("property_type", ["apartment", "house", "condo", "land", "commercial"]), dropdown("listing_type", ["sale", "rent"]), money("price", required, 12), int("bedrooms"), { name: "area_sqm", type: "decimal", precision: 8, scale: 1 }, bool("available", true)],
    },
    { name: "viewings", columns: [ref("property_id", "properties"), varchar("visitor_name", 120, required), email("visitor_email", false), datetime("scheduled_at", required), dropdown("status", ["scheduled", "done", "cancelled"])] },
  ],
  seed: {
    agents: rows(["name", "email", "phone"], [["Claire Dubois", "claire@homes.example", "+33 1 55 55 01 01"], ["Ravi Patel", "ravi@homes.example", "+44 20 7946 0222"], ["Tess Murphy", "tess@homes.example", null]]),
    properties: rows(["agent_id", "title", "address", "city", "property_type", "listing_type", "price", "bedrooms", "area_sqm", "available"], [
      [1, "Bright two-room flat", "12 Rue Oberkampf", "Paris", "apartment", "rent", 1650, 1, 48.5, true], [2, "Family house with garden", "8 Elm Grove", "Bristol", "house", "sale", 525000, 4, 142, true], [3, "Corner shop unit", "1 Main Street", "Cork", "commercial", "rent", 2400, null, 85, false],
    ]),
    viewings: rows(["property_id", "visitor_name", "visitor_email", "scheduled_at", "status"], [[1, "Hugo Lambert", "hugo@example.com", "2025-04-05T10:00:00Z", "scheduled"], [2, "The Nguyens", null, "2025-04-06T14:30:00Z", "done"], [2, "Sam Fox", "sam@example.com", "2025-04-08T11:00:00Z", "cancelled"]]),
  },
};

/** Earlier templates win when two define a table of the same name. */
export const DOMAINS: Domain[] = [shop, blog, crm, tasks, bookings, inventory, school, events, recipes, helpdesk, library, fitness, realEstate];
