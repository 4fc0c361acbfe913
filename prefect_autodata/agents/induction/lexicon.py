"""General language knowledge for field matching: what words people use for a column, in several languages.

A *concept* is one meaning a column can have ("price", "date", "phone"), with the words and phrases
people write for it in English, German, Spanish, French, Italian and Portuguese, the common
abbreviations of data files and APIs, and the value *family* its values usually belong to (money,
date, phone, a person's name, a short category, ...). A word may belong to several concepts ("style" is
a category and a cuisine; "rating" a score and a classification): matching asks whether two names share
a concept, never which one is meant.

This is a general thesaurus, the kind a data engineer keeps in mind when reading a foreign table: it
knows no site, no layout and no record kind. Record-kind knowledge lives in ``agents/kinds/``.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass

# ------------------------------------------------------------------------------------------ text

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_NON_WORD = re.compile(r"[^0-9a-z]+")
STOP = frozenset(
    """the a an of our your its their s by and or de del des du la le les el los las der die das den dem
    des und y e et di da do dos das""".split()
)
# Words that keep their final s (English and the Romance languages end many singulars in -s).
_KEEP_S = frozenset(
    """status series species news bus gas class address alias canvas chassis bonus campus census
    corpus genus lens plus minus versus atlas thesis analysis basis axis iris tennis chaos ethos gps
    mas menos pais pays mes ingles frances cs ms os us is ies has was its this yes""".split()
)


def fold(text: str) -> str:
    """Lower case without accents: ``"Título"`` → ``"titulo"``, ``"Straße"`` → ``"strasse"``."""
    s = unicodedata.normalize("NFKD", str(text or "")).replace("ß", "ss")
    return "".join(c for c in s if not unicodedata.combining(c)).lower()


def singular(word: str) -> str:
    """A rough singular good enough to compare column names in the languages above."""
    w = word
    if w in _KEEP_S or len(w) <= 3:
        return w
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if w.endswith(("sses", "shes", "ches", "xes")):
        return w[:-2]
    if w.endswith("s") and not w.endswith(("ss", "us", "is")):
        return w[:-1]
    return w


@functools.lru_cache(maxsize=131072)
def normalise(name: str) -> str:
    """``"Our Price:"`` → ``"our price"``; ``"datePosted"`` → ``"date posted"``; ``"Géneros"`` → ``"genero"``."""
    s = _CAMEL.sub(" ", str(name or "")).replace("_", " ")
    s = re.sub(r"(?<=\w)\s*#(?!\w)", " number", s)  # "CALL #", "Item #": the number of it
    words = [w for w in _NON_WORD.split(fold(s)) if w]
    return " ".join(singular(w) for w in words)


def content(n: str) -> str:
    """A normalised name without its stop words (``"the title"`` → ``"title"``); the name itself when all are."""
    return " ".join(w for w in n.split() if w not in STOP) or n


# ------------------------------------------------------------------------------------------ concepts


@dataclass(frozen=True)
class Concept:
    key: str
    family: str | None
    phrases: frozenset[str]  # normalised words and phrases, every language
    abbrevs: frozenset[str]  # normalised abbreviations (letters only), used only when the values fit


def _phrases(spec: str) -> frozenset[str]:
    return frozenset(content(normalise(p)) for p in spec.split(",") if p.strip())


# key, value family, words and phrases (comma separated, any language), abbreviations (space separated).
# Families: money date datetime year percent height weight length url email phone integer number rating
# person title address place category long code duration time bool image
_CONCEPTS: list[tuple[str, str | None, str, str]] = [
    # --- identity
    (
        "title",
        "title",
        "title, heading, headline, caption, titulo, titel, titre, titolo, título, intitule, designation, "
        "bezeichnung, denominacion, denominazione",
        "ttl tit",
    ),
    (
        "name",
        "title",
        "name, full name, display name, nombre, nom, nome, denomination, nombre completo, "
        "nom complet, nome completo, vollstandiger name",
        "nm nme",
    ),
    (
        "film",
        "title",
        "film, movie, motion picture, pelicula, película, filme, spielfilm, pellicola",
        "",
    ),
    (
        "product",
        "title",
        "product, item, article, goods, merchandise, produkt, artikel, ware, producto, articulo, artículo, "
        "produit, prodotto, articolo, produto",
        "prod itm",
    ),
    (
        "vehicle",
        "title",
        "vehicle, car, automobile, auto, used car, fahrzeug, wagen, auto, coche, carro, vehiculo, vehículo, "
        "voiture, vehicule, véhicule, automobile, macchina, veicolo, veiculo",
        "veh vhcl",
    ),
    (
        "job",
        "title",
        "job, job title, posting, job posting, position, job position, vacancy, opening, opportunity, "
        "stelle, stellenangebot, "
        "puesto, puesto de trabajo, vacante, empleo, oferta, poste, emploi, offre d emploi, lavoro, offerta di lavoro, vaga",
        "",
    ),
    (
        "first_name",
        "person",
        "first name, given name, forename, vorname, nombre de pila, prenom, prénom",
        "fn fname",
    ),
    (
        "last_name",
        "person",
        "last name, surname, family name, nachname, apellido, nom de famille, cognome, sobrenome",
        "ln lname",
    ),
    (
        "identifier",
        "code",
        "id, identifier, key, uid, uuid, reference, ref, kennung, identificador, identifiant, identificativo, codigo id",
        "ident idx",
    ),
    (
        "code",
        "code",
        "code, sku, part number, item number, article number, product code, artikelnummer, codigo, código, codice",
        "cd",
    ),
    ("number", "code", "number, no, num, nr, nummer, numero, número, numéro, n", "nbr nmbr"),
    # --- people
    (
        "author",
        "person",
        "author, writer, written by, by, creator, authored by, autor, autorin, autoren, autori, verfasser, verfasserin, "
        "auteur, autore, autora, escritor, schriftsteller, ecrivain, scrittore",
        "auth aut",
    ),
    (
        "director",
        "person",
        "director, directed by, film director, regisseur, regie, realisateur, réalisateur, realizador, "
        "regista, diretor, dirigida por",
        "dir",
    ),
    (
        "artist",
        "person",
        "artist, performer, singer, band, musician, kunstler, künstler, artista, artiste, interprete",
        "art",
    ),
    (
        "actor",
        "person",
        "actor, actress, cast, starring, star, darsteller, schauspieler, actriz, acteur, actrice, attore, ator, reparto",
        "",
    ),
    (
        "person",
        "person",
        "person, people, contact, contact person, ansprechpartner, contacto, personne, persona, pessoa",
        "",
    ),
    ("player", "person", "player, athlete, spieler, jugador, joueur, giocatore, jogador", "plyr"),
    (
        "manager",
        "person",
        "manager, coach, head coach, trainer, entrenador, entraineur, allenatore, treinador, leiter",
        "mgr",
    ),
    (
        "owner",
        "person",
        "owner, proprietor, inhaber, eigentumer, propietario, proprietaire, proprietario, dono",
        "",
    ),
    ("editor", "person", "editor, edited by, herausgeber, redakteur, redacteur", "ed"),
    (
        "publisher",
        "title",
        "publisher, imprint, verlag, editorial, editeur, éditeur, editore, editora, label",
        "pub publ",
    ),
    (
        "company",
        "title",
        "company, employer, organization, organisation, firm, business, corporation, enterprise, hiring company, "
        "firma, unternehmen, arbeitgeber, empresa, compania, compañía, entreprise, societe, société, azienda, "
        "societa, organizacion, organizzazione, empregador, brand name",
        "co corp org",
    ),
    (
        "brand",
        "category",
        "brand, make, manufacturer, maker, marke, hersteller, marca, fabricante, marque, fabricant, produttore, "
        "fabbricante",
        "mfr mfg mfgr",
    ),
    (
        "model",
        "title",
        "model, modell, modelo, modele, modèle, modello, version, variant, make and model, make model",
        "mdl",
    ),
    # --- money and amounts
    (
        "price",
        "money",
        "price, cost, amount, fee, fare, charge, rate, list price, sale price, our price, retail price, msrp, "
        "preis, kosten, betrag, gebuhr, precio, costo, coste, importe, tarifa, prix, cout, coût, tarif, montant, "
        "prezzo, importo, preco, preço, custo, valor, valeur, price per unit, unit price, asking price, "
        "rent, monthly rent, rental price, miete, kaltmiete, alquiler, loyer, affitto, canone, aluguel",
        "prc pr amt msrp rrp",
    ),
    (
        "salary",
        "money",
        "salary, pay, wage, wages, compensation, remuneration, income, earnings, gehalt, lohn, verdienst, "
        "salario, sueldo, salaire, remuneration, stipendio, retribuzione, salario anual, pay range, salary range",
        "sal comp",
    ),
    (
        "revenue",
        "money",
        "revenue, sales, turnover, umsatz, ingresos, facturacion, chiffre d affaires, fatturato, receita",
        "rev",
    ),
    ("budget", "money", "budget, presupuesto, bilancio, orcamento, box office, gross, recaudacion", ""),
    (
        "market_cap",
        "money",
        "market cap, market capitalization, market value, marktkapitalisierung, capitalizacion",
        "mktcap mcap",
    ),
    # --- time
    (
        "date",
        "date",
        "date, day, datum, fecha, dia, día, jour, data, giorno, published, posted, released, date posted, "
        "publication date, published on, release date, issued, erscheinungsdatum, veroffentlicht, "
        "fecha de publicacion, date de publication, data di pubblicazione, data de publicacao, updated, "
        "listed, listed on, date listed, posted on, added, date added, online since, "
        "last updated, created, timestamp, when, trading day, as of, publicado, publie, pubblicato",
        "dt dte pubdate ts",
    ),
    (
        "birth_date",
        "date",
        "birth date, date of birth, born, birthday, dob, geburtsdatum, geboren, fecha de nacimiento, nacimiento, date de naissance, ne le, data di nascita, nato",
        "dob bday",
    ),
    (
        "deadline",
        "date",
        "deadline, due date, closing date, expires, expiry, frist, fecha limite, date limite, scadenza, prazo",
        "",
    ),
    (
        "year",
        "year",
        "year, season, vintage, jahr, jahrgang, saison, spielzeit, ano, año, annee, année, anno, temporada, "
        "stagione, release year, year released, model year, founded year, year of publication",
        "yr yyyy yos",
    ),
    (
        "founded",
        "year",
        "founded, established, since, founded in, year founded, gegrundet, gegründet, seit, fundado, fundada, fundacion, fonde, fondé, fondation, fondato, fondazione, creado, inception",
        "est estd",
    ),
    (
        "time",
        "time",
        "time, hour, uhrzeit, zeit, hora, heure, ora, start time, end time, kickoff, showtime",
        "tm hr",
    ),
    (
        "hours",
        "time",
        "hours, opening hours, open, business hours, opening times, offnungszeiten, öffnungszeiten, horario, horaires, orari, horario de funcionamento",
        "hrs",
    ),
    (
        "duration",
        "duration",
        "duration, runtime, running time, length, length in minutes, dauer, laufzeit, spieldauer, duracion, duración, durée, duree, durata, duracao, minutes",
        "dur min mins rt",
    ),
    # --- places
    (
        "address",
        "address",
        "address, street address, street, location address, postal address, mailing address, adresse, anschrift, "
        "strasse, direccion, dirección, domicilio, adresse postale, indirizzo, via, endereco, endereço, morada",
        "addr adr",
    ),
    (
        "city",
        "place",
        "city, town, municipality, locality, stadt, ort, gemeinde, ciudad, localidad, ville, commune, citta, città, cidade, municipio",
        "cty",
    ),
    ("capital", "place", "capital, capital city, hauptstadt, capital, capitale, capitale", "cap"),
    (
        "state",
        "place",
        "state, province, region, county, bundesland, land, kanton, estado, provincia, region, région, departement, regione, provincia",
        "st prov",
    ),
    (
        "country",
        "place",
        "country, nation, land, staat, pais, país, pays, paese, nazione, nacionalidad, nationality",
        "ctry cntry",
    ),
    (
        "location",
        "place",
        "location, place, where, site, area, standort, lage, ort, ubicacion, ubicación, lugar, sitio, lieu, emplacement, luogo, posizione, local, localizacao, headquarters, hq, based in, origin, provenance, herkunft, origen, provenienza, "
        "neighborhood, neighbourhood, quarter, borough, suburb, stadtteil, viertel, barrio, colonia, quartier, "
        "quartiere, bairro",
        "loc",
    ),
    (
        "postal_code",
        "code",
        "zip, zip code, postal code, postcode, plz, postleitzahl, codigo postal, code postal, cap, cep",
        "zipcode",
    ),
    ("latitude", "number", "latitude, lat, breitengrad, latitud", "lat"),
    ("longitude", "number", "longitude, lon, lng, long, langengrad, longitud", "lon lng"),
    # --- contact
    (
        "phone",
        "phone",
        "phone, telephone, phone number, tel, telephone number, contact number, call, call us, mobile, cell, telefon, telefonnummer, rufnummer, telefono, teléfono, telephone, téléphone, numero de telephone, telefone, fax",
        "ph phn tel tlf fon",
    ),
    (
        "email",
        "email",
        "email, e mail, mail, email address, e mail address, correo, correo electronico, courriel, adresse e mail, posta elettronica, contact email",
        "eml",
    ),
    (
        "url",
        "url",
        "url, link, website, web, homepage, home page, site, web site, webpage, href, uri, permalink, enlace, lien, collegamento, pagina web, sitio web, site web, "
        "webseite, internetseite, webadresse, internetadresse, site internet, sito web, sito internet, pagina inicial, "
        "full text, pdf, download, download link, texto completo, texte integral, volltext",
        "lnk www",
    ),
    (
        "image",
        "image",
        "image, photo, picture, thumbnail, img, cover, poster, logo, bild, foto, imagen, imagem, immagine",
        "img pic thumb",
    ),
    # a site's member who did something (posted, submitted, uploaded): a person; after the image, so
    # that a bare "poster" stays a picture
    (
        "user",
        "person",
        "user, username, user name, member, poster, posted by, submitter, submitted by, uploader, commenter, "
        "benutzer, nutzer, usuario, utilisateur, utente, usuario",
        "usr",
    ),
    # --- classification
    (
        "category",
        "category",
        "category, type, kind, genre, class, classification, group, section, department, style, sort, variety, "
        "kategorie, art, typ, gattung, rubrik, sparte, categoria, categoría, tipo, clase, genero, género, "
        "categorie, catégorie, genre, classe, sorte, genere, gênero, segment, family, topic, subject, theme, tag",
        "cat typ cls grp dept",
    ),
    (
        "cuisine",
        "category",
        "cuisine, food, food type, type of food, style, kitchen, kuche, küche, cocina, cucina, cozinha, gastronomia, specialty, speciality",
        "cuis",
    ),
    (
        "status",
        "category",
        "status, state, condition, availability, zustand, estado, etat, état, stato, situacao, situação, in stock, stock status",
        "stat",
    ),
    (
        "sector",
        "category",
        "sector, control, ownership, institution type, type of institution, public or private, sektor, "
        "tragerschaft, trägerschaft, secteur, settore, setor, titularidad",
        "",
    ),
    ("language", "category", "language, lang, sprache, idioma, lengua, langue, lingua", "lang"),
    ("color", "category", "color, colour, farbe, color, couleur, colore, cor, finish", "col clr"),
    (
        "size",
        "category",
        "size, grosse, größe, tamano, tamaño, taille, dimensione, tamanho, dimensions",
        "sz",
    ),
    ("format", "category", "format, formato, edition, binding, media, medium", "fmt"),
    ("level", "category", "level, grade, stufe, nivel, niveau, livello, seniority, experience level", "lvl"),
    (
        "employment_type",
        "category",
        "employment type, job type, contract, contract type, schedule, full time, part time, vertragsart, tipo de contrato, type de contrat, jornada",
        "",
    ),
    (
        "decision",
        "category",
        "vote, decision, verdict, ruling, outcome, choice, stimme, entscheidung, voto, decision, decisione",
        "",
    ),
    (
        "party",
        "category",
        "party, political party, party affiliation, partei, partido, partido politico, parti, parti politique, "
        "partito",
        "",
    ),
    (
        "constituency",
        "code",
        "constituency, district, electoral district, legislative district, ward, riding, wahlkreis, "
        "circunscripcion, distrito electoral, circonscription, collegio elettorale",
        "dist",
    ),
    (
        "position",
        "category",
        "position, role, office, post held, pos, posicion, posición, poste, posizione, posicao",
        "pos",
    ),
    (
        "team",
        "title",
        "team, club, franchise, side, squad, mannschaft, verein, equipo, club, equipe, équipe, squadra",
        "tm",
    ),
    (
        "league",
        "category",
        "league, conference, division, liga, ligue, lega, conferencia, division",
        "lg conf div",
    ),
    (
        "symbol",
        "code",
        "symbol, ticker, ticker symbol, stock symbol, stock, kurzel, simbolo, symbole, simbolo",
        "sym tkr",
    ),
    ("isbn", "code", "isbn, isbn 13, isbn 10, ean, upc, barcode, gtin, doi, issn", ""),
    # --- scores and counts
    (
        "rating",
        "rating",
        "rating, score, stars, grade, review score, user rating, average rating, mark, bewertung, wertung, "
        "note, benotung, calificacion, calificación, clasificacion, clasificación, valoracion, valoración, "
        "puntuacion, evaluation, évaluation, appreciation, valutazione, voto, giudizio, avaliacao, avaliação, "
        "classificacao, classificação, nota, certificate, certification, age rating, content rating, "
        "parental rating, age classification, film rating, movie rating, mpaa, mpaa rating, mpa rating, "
        "altersfreigabe, freigabe, altersempfehlung, "
        "clasificacion por edades, classificacao indicativa, classificazione per eta",
        "rtg rat scr",
    ),
    (
        "rank",
        "integer",
        "rank, ranking, position, place, standing, platz, rang, puesto, clasificacion, classement, rang, posizione, classifica, colocacao",
        "rnk rk",
    ),
    (
        "count",
        "integer",
        "count, total, quantity, qty, anzahl, menge, cantidad, quantite, quantité, quantita, quantità, quantidade",
        "cnt qty ct num tot",
    ),
    (
        "reviews",
        "integer",
        "reviews, review count, number of reviews, ratings count, votes, bewertungen, resenas, reseñas, avis, recensioni, avaliacoes",
        "rvw revs",
    ),
    (
        "population",
        "integer",
        "population, inhabitants, residents, einwohner, bevolkerung, poblacion, población, habitantes, habitants, abitanti, populacao",
        "pop",
    ),
    (
        "enrollment",
        "integer",
        "enrollment, enrolment, students, student body, student population, studierende, estudiantes, etudiants, étudiants, studenti, alunos, matricula",
        "enr",
    ),
    (
        "employees",
        "integer",
        "employees, staff, headcount, workforce, mitarbeiter, beschaftigte, empleados, employes, employés, dipendenti, funcionarios",
        "emp",
    ),
    (
        "pages",
        "integer",
        "pages, page count, number of pages, pagination, page range, seiten, seitenzahl, paginas, páginas, pagine",
        "pp pgs pg",
    ),
    ("age", "integer", "age, alter, edad, âge, age, eta, età, idade, years old", ""),
    (
        "games",
        "integer",
        "games, games played, matches, appearances, spiele, partidos, juegos, matchs, partite, jogos, gp",
        "g gp gms mp",
    ),
    (
        "wins",
        "integer",
        "wins, won, victories, siege, victorias, ganados, victoires, vittorie, vitorias",
        "w wn",
    ),
    (
        "losses",
        "integer",
        "losses, lost, defeats, niederlagen, derrotas, perdidos, defaites, défaites, sconfitte",
        "l ls",
    ),
    ("draws", "integer", "draws, ties, tied, unentschieden, empates, nuls, pareggi", "d t"),
    ("points", "number", "points, pts, punkte, puntos, points, punti, pontos", "pts pt"),
    ("goals", "integer", "goals, tore, goles, buts, gol, gols", "gls"),
    (
        "percentage",
        "percent",
        "percent, percentage, pct, chance, probability, likelihood, share, ratio, prozent, anteil, porcentaje, pourcentage, percentuale, porcentagem",
        "pct perc",
    ),
    (
        "average",
        "number",
        "average, mean, avg, durchschnitt, mittelwert, schnitt, promedio, media, moyenne, media aritmetica, "
        "gemiddelde",
        "avg",
    ),
    (
        "change",
        "number",
        "change, difference, delta, diff, anderung, veranderung, cambio, variacion, variation, variazione, variacao",
        "chg",
    ),
    ("volume", "integer", "volume, vol, shares traded, umsatz volumen, volumen, volume", "vol"),
    ("open_price", "money", "open, opening, opening price, eroffnung, apertura, ouverture", "o op"),
    (
        "close_price",
        "money",
        "close, closing price, last, last price, schluss, schlusskurs, cierre, cloture, clôture, chiusura, fechamento",
        "c cls",
    ),
    ("high_price", "money", "high, day high, hoch, maximo, máximo, plus haut, massimo", "h hi"),
    ("low_price", "money", "low, day low, tief, minimo, mínimo, plus bas", "lo"),
    # --- measures
    (
        "height",
        "height",
        "height, tall, stature, grosse, größe, hohe, höhe, altura, estatura, taille, hauteur, altezza",
        "ht hgt",
    ),
    ("weight", "weight", "weight, mass, gewicht, peso, poids, massa", "wt wgt"),
    (
        "length",
        "length",
        "length, distance, lange, länge, longitud, longueur, lunghezza, comprimento, distancia",
        "len dist",
    ),
    (
        "area",
        "number",
        "area, surface, size in square, flache, fläche, superficie, superficie, area, área, square feet, square meters",
        "sqft",
    ),
    (
        "elevation",
        "number",
        "elevation, altitude, hohe uber, höhe über, altitud, altitudine, elevacao",
        "elev alt",
    ),
    ("speed", "number", "speed, top speed, geschwindigkeit, velocidad, vitesse, velocita", "spd"),
    ("temperature", "number", "temperature, temp, temperatur, temperatura", "temp"),
    (
        "bedrooms",
        "integer",
        "bedrooms, number of bedrooms, bedroom count, beds, schlafzimmer, dormitorios, recamaras, "
        "chambres a coucher, camere da letto",
        "br bd bdr bdrm",
    ),
    (
        "capacity",
        "integer",
        "capacity, seats, seating, kapazitat, kapazität, capacidad, capacite, capacité, capacita, capacidade",
        "cap",
    ),
    (
        "engine",
        "text",
        "engine, motor, moteur, motore, powertrain, displacement, hubraum, cilindrada, cylindree",
        "eng",
    ),
    ("power", "number", "power, horsepower, leistung, potencia, puissance, potenza, ps, kw, bhp", "hp pwr"),
    (
        "fuel_economy",
        "number",
        "fuel economy, fuel consumption, consumption, mpg, miles per gallon, verbrauch, kraftstoffverbrauch, consumo, consommation, economy, "
        "gas mileage, fuel mileage, fuel efficiency, efficiency, l 100km, mileage",
        "mpg",
    ),
    (
        "fuel",
        "category",
        "fuel, fuel type, kraftstoff, combustible, carburant, carburante, combustivel",
        "fl",
    ),
    (
        "mileage",
        "integer",
        "mileage, odometer, kilometers, kilometres, miles, kilometerstand, kilometraje, kilometrage",
        "mi km",
    ),
    (
        "resolution",
        "text",
        "resolution, megapixels, mp, sensor, auflosung, resolucion, résolution, risoluzione",
        "res",
    ),
    ("zoom", "text", "zoom, optical zoom, focal length, brennweite", ""),
    (
        "tuition",
        "money",
        "tuition, tuition fee, fees, studiengebuhren, matricula, frais de scolarite, tasse universitarie",
        "",
    ),
    (
        "acceptance_rate",
        "percent",
        "acceptance rate, admission rate, admit rate, tasa de admision, taux d admission",
        "",
    ),
    # --- texts
    (
        "description",
        "long",
        "description, summary, abstract, overview, about, details, synopsis, plot, blurb, text, body, content, "
        "notes, remarks, beschreibung, zusammenfassung, inhalt, descripcion, descripción, resumen, sinopsis, "
        "resume, résumé, sommaire, descrizione, sommario, trama, descricao, descrição, resumo",
        "desc descr",
    ),
    (
        "keywords",
        "text",
        "keywords, tags, topics, schlagworter, palabras clave, mots cles, parole chiave",
        "kw",
    ),
    (
        "comment",
        "long",
        "comment, comments, review, review text, feedback, kommentar, comentario, commentaire, commento",
        "",
    ),
    (
        "venue",
        "title",
        "venue, event, conference, journal, proceedings, veranstaltung, lugar del evento, revue, rivista, "
        "konferenz, tagung, zeitschrift, conferencia, congreso, revista, conferenza, convegno",
        "",
    ),
    ("track", "category", "track, session, strand, stream", "trk"),
    (
        "stadium",
        "title",
        "stadium, arena, ground, ballpark, home ground, stadion, estadio, stade, stadio",
        "",
    ),
    (
        "school",
        "title",
        "school, university, college, institution, universitat, universität, universidad, universite, université, universita, universidade, hochschule",
        "univ",
    ),
    (
        "degree",
        "category",
        "degree, program, programme, major, abschluss, titulo academico, diplome, laurea",
        "",
    ),
    ("bool_flag", "bool", "available, active, enabled, verified, open now, is open", ""),
]


# A general meaning and the narrower ones a page may label its column by: the user's "location" is
# whatever place a listing shows (its city, its street address); the reverse holds only weakly (a
# page's "Location" may be the city asked, or a street).
NARROWER: dict[str, frozenset[str]] = {
    "location": frozenset({"city", "address", "state", "country"}),
    "category": frozenset({"cuisine", "employment_type", "sector", "level", "format", "league"}),
    "person": frozenset({"author", "director", "artist", "actor", "player", "manager", "owner", "editor"}),
    # a role (a position) may be a job's title: "role" asked of job postings is their "Job title"
    "position": frozenset({"job"}),
    # the user's "item" or "product" is whatever names each thing sold: its model, its name, its title
    "product": frozenset({"model", "name", "title"}),
}


# Units of measure and how a header or a sentence spells them ("Height (m)", "height in metres"):
# the symbol first. A unit is what a number is counted in, never a difference of name.
_UNITS = (
    "m: metre, metres, meter, meters, mtr",
    "ft: feet, foot",
    "km: kilometre, kilometres, kilometer, kilometers, kms",
    "mi: mile, miles",
    "cm: centimetre, centimetres, centimeter, centimeters",
    "mm: millimetre, millimetres, millimeter, millimeters",
    "in: inch, inches",
    "kg: kilo, kilos, kilogram, kilograms, kgs",
    "g: gram, grams, gramme, grammes",
    "lb: lbs, pound, pounds",
    "t: tonne, tonnes, ton, tons",
    "s: sec, secs, second, seconds",
    "min: mins, minute, minutes",
    "h: hr, hrs, hour, hours",
    "mph: miles per hour",
    "km/h: kmh, kph, kilometres per hour, kilometers per hour",
    "°c: c, celsius, degrees celsius",
    "°f: f, fahrenheit, degrees fahrenheit",
    "%: percent, per cent, pct",
    "sq ft: sqft, ft2, ft², square feet, square foot",
    "m²: m2, sq m, sqm, square metre, square metres, square meter, square meters",
)
UNIT_OF: dict[str, str] = {
    w.strip(): sym for sym, _, rest in (u.partition(": ") for u in _UNITS) for w in [sym, *rest.split(",")]
}


def unit_symbol(text: str | None) -> str | None:
    """The unit ``text`` spells (``"metres"`` and ``"m"``: ``"m"``), else None."""
    if not text:
        return None
    t = " ".join(str(text).casefold().strip(" .()[]").split())
    return UNIT_OF.get(t)


_HEADER_UNIT = re.compile(
    r"^(.*?\S)\s*(?:\(([^()]{1,14})\)|\[([^\[\]]{1,14})\]|,\s*([^\W\d_][^,]{1,10}))\s*$"
)


def header_unit(label: str | None) -> str | None:
    """The unit a header writes after its name ("Height (m)", "Weight [kg]", "Area, sq ft"), else None."""
    m = _HEADER_UNIT.match(" ".join(str(label or "").split()))
    return unit_symbol(next((g for g in m.groups()[1:] if g), None)) if m else None


# Places one text writes together with commas go from the narrowest to the broadest ("Austin, Texas,
# USA"; "Haikou, China"): the rank of each place concept in that order.
PLACE_ORDER: dict[str, int] = {"address": 0, "city": 1, "state": 2, "country": 3}


def place_rank(text: str) -> int | None:
    """The rank in ``PLACE_ORDER`` of the one place concept ``text`` names ("town": city), else None."""
    ranks = {PLACE_ORDER[k] for k in concept_keys(text) if k in PLACE_ORDER}
    return ranks.pop() if len(ranks) == 1 else None


def narrower(general: set[str], specific: set[str]) -> bool:
    """True when a concept of ``specific`` is a narrower meaning of one of ``general``."""
    return any(NARROWER.get(g, frozenset()) & specific for g in general)


@functools.cache
def concepts() -> tuple[Concept, ...]:
    out = []
    for key, fam, words, abbr in _CONCEPTS:
        phrases = _phrases(words) | {content(normalise(key.replace("_", " ")))}
        out.append(Concept(key, fam, phrases, frozenset(normalise(a) for a in abbr.split())))
    return tuple(out)


@functools.cache
def _index() -> dict[str, tuple[Concept, ...]]:
    idx: dict[str, list[Concept]] = {}
    for c in concepts():
        for p in c.phrases:
            idx.setdefault(p, []).append(c)
    return {k: tuple(v) for k, v in idx.items()}


@functools.cache
def _abbrev_index() -> dict[str, tuple[Concept, ...]]:
    idx: dict[str, list[Concept]] = {}
    for c in concepts():
        for a in c.abbrevs:
            idx.setdefault(a, []).append(c)
    return {k: tuple(v) for k, v in idx.items()}


def stem(word: str) -> str:
    """The base a participle or gerund is formed on, to compare inflected forms of one verb: "rated",
    "rating" and "rate" → "rat"; "planned" → "plan"; "classified" → "classifi". Other words lose a
    final e only ("price" → "pric"), so a base meets its inflections."""
    w = word
    if len(w) >= 5 and w.endswith("ied"):
        w = w[:-3] + "i"
    elif len(w) >= 6 and w.endswith("ing"):
        w = w[:-3]
    elif len(w) >= 5 and w.endswith("ed"):
        w = w[:-2]
    if len(w) >= 4 and w[-1] == w[-2] and w[-1] not in "aeiouls":
        w = w[:-1]  # a doubled final consonant: "planned" → "plann" → "plan"
    if len(w) >= 4 and w.endswith("e"):
        w = w[:-1]
    return w


def inflected(word: str) -> bool:
    """True when ``word`` reads as a participle or gerund ("Rated", "Listed", "Starring")."""
    return (len(word) >= 5 and word.endswith("ed")) or (len(word) >= 6 and word.endswith("ing"))


@functools.cache
def _stem_index() -> dict[str, tuple[Concept, ...]]:
    """Concepts by the stem of their one-word phrases (words of four letters or more)."""
    idx: dict[str, list[Concept]] = {}
    for c in concepts():
        for p in c.phrases:
            if " " not in p and len(p) >= 4 and p.isalpha():
                idx.setdefault(stem(p), []).append(c)
    return {k: tuple(dict.fromkeys(v)) for k, v in idx.items()}


def _by_inflection(word: str) -> tuple[Concept, ...]:
    """Concepts an inflected word the lexicon does not list belongs to through its verb: the page's
    "Rated" is a form of the "rating" (and of the "rate") the lexicon knows. Only for a participle or
    gerund, never a bare word ("Rate" stays a rate)."""
    if not inflected(word) or len(stem(word)) < 3:
        return ()
    return _stem_index().get(stem(word), ())


def _by_compound_head(word: str) -> tuple[Concept, ...]:
    """Concepts of a closed compound by its last part, the way German (and English) compounds name
    their head last: "Schlagdurchschnitt" (batting average) is a "durchschnitt", "Kaufpreis" a "preis".
    The longest listed word of five letters or more ending the word, after a part of three or more."""
    if len(word) < 8 or not word.isalpha():
        return ()
    idx = _index()
    for k in range(3, len(word) - 4):
        tail = word[k:]
        if tail in idx:
            return idx[tail]
        if tail.endswith("s") and tail[:-1] in idx and len(tail) > 5:
            return idx[tail[:-1]]
    return ()


def head(n: str) -> str:
    """The head word of a normalised phrase: its last content word ("mpaa rating" → "rating")."""
    words = [w for w in n.split() if w not in STOP]
    return words[-1] if words else n


@functools.cache
def concepts_of(name: str) -> tuple[tuple[Concept, float], ...]:
    """The concepts a field name belongs to, each with how directly (1: the phrase, 0.8: its head word).

    ``"Release date"`` → date (1.0: the phrase is listed); ``"MPAA rating"`` → rating (0.8: by its
    head word); ``"Fecha"`` → date (1.0).
    """
    n = content(normalise(name))
    if not n:
        return ()
    idx = _index()
    found: dict[str, tuple[Concept, float]] = {}
    for c in idx.get(n, ()):
        found[c.key] = (c, 1.0)
    words = n.split()
    if len(words) == 1 and not found:
        for c in _by_inflection(n):
            found.setdefault(c.key, (c, 0.8))  # "Rated": a form of "rating", less direct than the phrase
    if len(words) == 1 and not found:
        for c in _by_compound_head(n):
            found.setdefault(c.key, (c, 0.6))  # "Schlagdurchschnitt": an average, by its last part
    if len(words) > 1:
        h = head(n)
        for c in idx.get(h, ()):
            found.setdefault(c.key, (c, 0.8))
        # a leading head in Romance order: "fecha de publicacion", "numero de telefono"
        raw = normalise(name).split()
        romance = len(raw) > 2 and raw[1] in ("de", "di", "da", "du", "des", "del", "do", "della")
        for c in idx.get(words[0], ()):
            found.setdefault(c.key, (c, 0.8 if romance else 0.7))
    return tuple(found.values())


NO_CONCEPT = Concept("", None, frozenset(), frozenset())


def concept(key: str) -> Concept | None:
    """The concept of that key, None when there is none."""
    return next((c for c in concepts() if c.key == key), None)


def concept_keys(name: str) -> set[str]:
    return {c.key for c, _ in concepts_of(name)}


def abbrev_concepts(token: str) -> tuple[Concept, ...]:
    """Concepts listing ``token`` (normalised, letters only) as one of their usual abbreviations."""
    return _abbrev_index().get(token, ())


def synonyms(name: str) -> set[str]:
    return set(_synonyms(name))


@functools.cache
def _synonyms(name: str) -> frozenset[str]:
    """Every phrase sharing a concept with ``name`` directly (the name itself included)."""
    n = content(normalise(name))
    out = {n}
    for c, w in concepts_of(name):
        if w >= 1.0:
            out |= c.phrases
    return frozenset(out)


# Words that lead a count ("number of posts", "num replies", "nº de páginas") and the linking words after them.
_COUNT_LEADS = frozenset("number num no nr nb nbr anzahl numero nombre".split())
_LINKS = frozenset("of de di des da do du der".split())


def _raw_words(name: str) -> list[str]:
    """The name's words as written (folded, not singularised, stop words kept)."""
    return [w for w in _NON_WORD.split(fold(_CAMEL.sub(" ", str(name or "")).replace("_", " "))) if w]


def _role_family(name: str) -> str | None:
    """The family the name's grammar says, whatever its words mean: a count word leading a plural
    ("number of comments", "num replies") asks how many, an integer; a name ending in "by" ("posted by",
    "last post by") asks who, a person."""
    raw = _raw_words(name)
    if len(raw) >= 2 and raw[0] in _COUNT_LEADS:
        rest = raw[2:] if raw[1] in _LINKS else raw[1:]
        if rest and singular(rest[-1]) != rest[-1]:
            return "integer"  # "number of pages"; "numero de telefono" (one thing) stays a number code
    if len(raw) >= 2 and raw[-1] == "by":
        return "person"
    return None


@functools.cache
def family(name: str) -> str | None:
    """The value family a field name implies: ``"price"`` → money, ``"Fecha"`` → date; None when it does not say."""
    role = _role_family(name)
    if role is not None:
        return role
    best: tuple[float, str] | None = None
    own = content(normalise(name)).replace(" ", "_")
    raw = _raw_words(name)
    lone = raw[0] if len(raw) == 1 and singular(raw[0]) == raw[0] else None

    def plural_count(c: Concept) -> bool:
        # a count is named in the plural ("votes", "pages"): the one thing ("vote", "page") is no count
        return lone is not None and c.family == "integer" and lone not in _written(c.key)

    as_written = " ".join(raw)
    for c, w in concepts_of(name):
        if plural_count(c):
            continue
        # among equally direct meanings the word's own concept goes first ("position": a role, though
        # a job and a rank are positions too), then one listing the word as written ("votes", a count)
        rank = (w, c.key == own, as_written in _written(c.key))
        if c.family and (best is None or rank > best[0]):
            best = (rank, c.family)
    if best is not None:
        return best[1]
    # a word inside the name that says it: "total cost" → money; "number of pages" → integer
    n = content(normalise(name))
    for word in reversed(n.split()):
        for c in _index().get(word, ()):
            if c.family and not plural_count(c):
                return c.family
    return None


@functools.cache
def _written(key: str) -> frozenset[str]:
    """The words and phrases of concept ``key`` as the lexicon writes them (folded, not singularised)."""
    return frozenset(
        " ".join(_raw_words(p))
        for k, _f, spec, _a in _CONCEPTS
        if k == key
        for p in spec.split(",")
        if p.strip()
    )


def is_known_word(name: str) -> bool:
    """True when a label names some concept of the lexicon (it then says what it is, even if not what we ask)."""
    return bool(concepts_of(name))


# ------------------------------------------------------------------------------------------ values

MONTHS: dict[str, int] = {}
for _i, _names in enumerate(
    [
        "january jan januar enero ene janvier janv gennaio gen janeiro",
        "february feb februar febrero fevrier fev febbraio fevereiro",
        "march mar marz maerz marzo mars marco",
        "april apr abril avril avr aprile",
        "may mai mayo maggio maio",
        "june jun juni junio juin giugno junho",
        "july jul juli julio juillet juil luglio julho",
        "august aug agosto aout ago",
        "september sep sept septiembre setiembre septembre settembre set setembro",
        "october oct oktober okt octubre octobre ottobre ott outubro out",
        "november nov noviembre novembre novembro",
        "december dec dezember dez diciembre dic decembre dicembre dezembro",
    ],
    start=1,
):
    for _m in _names.split():
        MONTHS.setdefault(_m, _i)

WEEKDAYS = frozenset(
    """monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun
    montag dienstag mittwoch donnerstag freitag samstag sonntag lunes martes miercoles jueves viernes sabado
    domingo lundi mardi mercredi jeudi vendredi samedi dimanche lunedi martedi mercoledi giovedi venerdi
    sabato domenica""".split()
)

CURRENCY_SYMBOLS = "$£€¥₹₩₽₺₫₪฿₦₱"
CURRENCY_CODES = frozenset(
    "usd eur gbp jpy chf cad aud nzd cny rmb inr brl mxn sek nok dkk pln czk huf rub try krw zar sgd hkd".split()
)
CURRENCY_WORDS = frozenset("dollar dollars euro euros pound pounds yen franc francs kr sfr".split())
# The two as regular-expression pieces, the one pattern every value reader uses: a character class body
# of the signs (``[{CURRENCY_SIGN_RE}]``) and an alternation of the codes (``(?:{CURRENCY_CODE_RE})``).
CURRENCY_SIGN_RE = re.escape(CURRENCY_SYMBOLS)
CURRENCY_CODE_RE = "|".join(sorted(CURRENCY_CODES))

# Street words and abbreviations (address-like values).
STREET_WORDS = frozenset(
    """street st str strasse straße road rd avenue ave av avda avenida boulevard blvd lane ln drive dr court ct
    place pl square sq way highway hwy parkway pkwy terrace circle cir suite ste floor fl building bldg
    trail trl pike turnpike tpke expressway expy freeway fwy alley crescent cres grove mews plaza
    platz weg gasse allee ring damm ufer calle carrera paseo plaza camino rue chemin allee place quai impasse
    via viale piazza corso largo rua travessa praca""".split()
)

# The postal codes of US states and territories and of Canadian provinces: a place written the way
# North American listings write one ("Baltimore MD", "San Antonio, TX", "Toronto, ON").
REGION_CODES = frozenset(
    """AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND
    OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC PR GU VI AB BC MB NB NL NS NT NU ON PE QC SK YT""".split()
)

# Words that end or make an organisation's name ("Rose International", "Acme Corp.", "Fcs Software
# Solutions Limited"): legal forms and the usual words of firms and institutions, in several languages.
ORG_WORDS = frozenset(
    """inc incorporated llc llp lp ltd limited corp corporation co company companies plc gmbh ag kg sa sas sarl
    srl spa bv nv oy ab as pty pvt group holdings partners associates consulting consultants solutions
    systems technologies technology labs services agency international industries enterprises
    university college institute foundation bank studios studio media networks staffing recruiting""".split()
)

UNITS_LENGTH = frozenset("mm cm m km in inch inches ft feet foot mi mile miles yd".split())
UNITS_WEIGHT = frozenset("mg g kg t lb lbs oz st".split())
UNITS_TIME = frozenset("s sec secs second seconds min mins minute minutes h hr hrs hour hours".split())
TRUE_FALSE = frozenset("true false yes no y n ja nein si sí no oui non vero falso sim nao não".split())
NAME_PARTICLES = frozenset(
    "van von der den de del della di da do dos das du la le el bin ibn al mac mc st jr sr ii iii iv".split()
)
